// node:zlib is there at run time in the Worker tests (nodejs_compat); they use only this of it.
declare module 'node:zlib' {
  export function gunzipSync(data: Uint8Array): Uint8Array;
}
