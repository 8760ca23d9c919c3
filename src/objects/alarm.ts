/** Makes sure a Durable Object's alarm fires by `at` (an earlier one is kept). */
export async function alarmBy(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current === null || current > at) await storage.setAlarm(at);
}
