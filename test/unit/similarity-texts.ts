/** Texts for the similarity tests: main texts as extraction gives them (one block a line). */

export const SOURDOUGH = `How to keep a sourdough starter alive through the winter
A starter is a living culture of wild yeast and lactic acid bacteria, and like any living thing it slows down when the kitchen gets cold. Many bakers notice in November that their loaves rise more slowly and taste sharper, and they blame the flour when the real cause is the temperature of the jar.
The simplest fix is to find a warmer spot. The top of the refrigerator, a shelf above the radiator or an oven with only the light switched on will usually hold the culture between twenty-four and twenty-six degrees, which is where the yeast is happiest.
Feeding matters as much as warmth. In winter it helps to feed the starter twice a day with equal weights of flour and water, and to discard all but a spoonful before each feeding, so that the young culture is never starved and never drowned.
Whole grain rye flour gives the bacteria more to eat than white flour does. A handful of rye in every feeding makes the starter more active within a few days, and the bread gains a deeper colour and a slightly nutty flavour.
If you go away for a week, the starter can sleep in the refrigerator. Feed it generously, let it rise for an hour, close the lid and put it at the back of the lowest shelf. When you come back, two or three feedings at room temperature will wake it up again.
A starter that smells of nail varnish is hungry, not dead. One that grows pink or orange streaks has been taken over by something else and should be thrown away, together with the jar.
With a little attention a starter will outlive its baker. Some families in San Francisco and in the Black Forest have kept theirs for more than a century, passing a jar from one generation to the next.`;

export const RYE = `Baking a dense rye loaf the way northern bakeries do
Rye behaves nothing like wheat. It has very little gluten, so the dough cannot trap gas in a stretchy network, and what holds a rye loaf together is a sticky mixture of starches and gums that sets only when the bread has cooled completely.
That is why the classic northern loaf is baked in a tin. The dough is more like a thick paste than a ball, and bakers smooth its surface with a wet hand or a spatula instead of shaping it on the bench.
Acidity is the other secret. Rye flour contains active enzymes that break starch down into sugar while the loaf bakes, and without enough acid the crumb turns gummy. A long fermentation with a mature sour culture keeps those enzymes in check.
Many recipes add cracked grains, sunflower seeds or linseed soaked overnight. The soaker keeps the crumb moist for a week, and the seeds give a chewy texture that children either love or refuse to eat.
Bake the loaf low and slow, starting hot for the first fifteen minutes and then lowering the oven for another hour. A thermometer pushed into the centre should read at least ninety-eight degrees before the tin comes out.
The hardest part is waiting. A rye loaf should rest, wrapped in a cloth, for a full day before it is cut; cut it warm and the knife will drag the wet crumb into a paste.
Sliced thin and spread with butter, the bread keeps its character for days and tastes better on the third morning than on the first.`;

/** A shop's list: one product a line. */
export const PRODUCTS = [
  'Classic linen shirt, white, slim fit, 49.90 EUR',
  'Organic cotton t-shirt, navy blue, regular fit, 19.90 EUR',
  'Merino wool jumper, charcoal grey, crew neck, 89.00 EUR',
  'Waxed cotton jacket, olive green, with corduroy collar, 189.00 EUR',
  'Selvedge denim jeans, raw indigo, straight leg, 129.00 EUR',
  'Chino trousers, sand beige, tapered leg, 69.90 EUR',
  'Oxford button-down shirt, light blue, classic fit, 59.90 EUR',
  'Cashmere scarf, camel, fringed ends, 99.00 EUR',
  'Leather belt, dark brown, brass buckle, 45.00 EUR',
  'Canvas sneakers, off-white, vulcanised sole, 65.00 EUR',
  'Suede chukka boots, tobacco, crepe sole, 149.00 EUR',
  'Flannel pyjamas, red tartan, two pieces, 55.00 EUR',
  'Quilted vest, black, recycled filling, 79.90 EUR',
  'Rain coat, mustard yellow, taped seams, 119.00 EUR',
  'Knitted beanie, forest green, ribbed, 24.90 EUR',
  'Linen shorts, stone, drawstring waist, 39.90 EUR',
  'Polo shirt, burgundy, piqué cotton, 44.90 EUR',
  'Wool socks, pack of three, mixed colours, 21.00 EUR',
  'Corduroy overshirt, rust, two chest pockets, 84.90 EUR',
  'Swim shorts, turquoise, quick dry, 34.90 EUR',
  'Denim jacket, washed blue, trucker style, 99.90 EUR',
  'Hooded sweatshirt, heather grey, brushed fleece, 64.90 EUR',
  'Silk tie, midnight blue, hand rolled, 59.00 EUR',
  'Leather gloves, black, cashmere lined, 79.00 EUR',
];

/** One function's page of a library's reference: its name, signature, description, parameters, result, example. */
function apiPage(name: string, summary: string, params: [string, string][], returns: string, example: string) {
  return [
    `${name}()`,
    `function ${name}(${params.map(([p]) => p).join(', ')})`,
    summary,
    'Parameters',
    ...params.map(([p, text]) => `${p}: ${text}`),
    'Returns',
    returns,
    'Example',
    example,
    'Available since version 2.0. See also the guide on dates and times.',
  ].join('\n');
}

export const PARSE_DATE = apiPage(
  'parseDate',
  'Reads a date written in one of the ISO 8601 forms and gives back the instant it names, in the time zone the text declares or in UTC when it declares none.',
  [
    ['text', 'the date to read, such as 2031-03-05 or 2031-03-05T10:41:00+01:00'],
    ['options', 'an object whose strict property refuses dates that name no time zone'],
  ],
  'A Date, or null when the text is not a date in any of the accepted forms.',
  "const when = parseDate('2031-03-05T10:41:00Z'); // Wed Mar 05 2031",
);

export const FORMAT_DURATION = apiPage(
  'formatDuration',
  'Writes a length of time in words a reader understands at a glance, rounding it to the largest unit that keeps at least one whole step, in the language of the current locale.',
  [
    ['milliseconds', 'how long, a whole number that may be negative for a time in the past'],
    ['options', 'an object whose units property limits the words used, from seconds to years'],
  ],
  'A string such as "3 hours" or "in 2 days", never empty.',
  "formatDuration(90 * 60 * 1000); // '2 hours' with the default rounding",
);

/** Short product pages of one shop's template: name, price, stock, the product's own description, buttons, SKU. */
function productPage(name: string, price: string, description: string, sku: string) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const text = [
    name,
    price,
    'In stock. Delivered in 2 to 4 working days.',
    description,
    'Add to basket',
    'Free delivery on orders over 50 €. Returns accepted within 30 days.',
    `SKU ${sku}`,
  ].join('\n');
  return { text, url: `https://shop.example/products/${slug}` };
}

export const PRODUCT_PAGES = [
  productPage(
    'Classic linen shirt',
    '49.90 €',
    'Woven from European flax, this shirt softens with every wash. A relaxed collar, mother-of-pearl buttons and a longer back hem make it easy to wear tucked or loose.',
    '104233',
  ),
  productPage(
    'Merino wool jumper',
    '89.00 €',
    'Knitted in Scotland from extra fine merino, warm without bulk. The crew neck sits close, and ribbed cuffs keep their shape after years of wear.',
    '118730',
  ),
  productPage(
    'Waxed cotton jacket',
    '189.00 €',
    'A field jacket that shrugs off rain: waxed cotton outside, a checked lining inside, two bellows pockets and a corduroy collar you can turn up against the wind.',
    '120991',
  ),
  productPage(
    'Selvedge denim jeans',
    '129.00 €',
    'Raw indigo denim woven on old shuttle looms in Okayama. Unwashed, it fades to the shape of the one who wears it; the straight leg suits boots and sneakers alike.',
    '131002',
  ),
  productPage(
    'Canvas sneakers',
    '65.00 €',
    'Heavy cotton canvas on a vulcanised rubber sole, stitched by hand in Portugal. Cushioned insoles and a padded collar make them comfortable from the first day.',
    '140018',
  ),
  productPage(
    'Cashmere scarf',
    '99.00 €',
    'Two-ply cashmere brushed for a soft hand, long enough to wrap twice. Finished with fringed ends and woven in a family mill that has spun wool since 1898.',
    '152764',
  ),
];
