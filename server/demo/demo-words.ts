// Word lists for the demo data. A few entries deliberately carry accents, CJK, emoji, apostrophes, double quotes,
// commas, tabs and line breaks, because searching, the grid and every export format are tested against them.

/** A country row, with the UTC offset (minutes) used for its DATETIMEOFFSET values and a few of its cities. */
export interface DemoCountry {
  code: string;
  iso3: string;
  name: string;
  currency: string;
  phonePrefix: string;
  isEuMember: boolean;
  offsetMinutes: number;
  cities: readonly string[];
}

export const COUNTRIES: readonly DemoCountry[] = [
  country('US', 'USA', 'United States', 'USD', '+1', false, -300, ['New York', 'San José', "Coeur d'Alene"]),
  country('CA', 'CAN', 'Canada', 'CAD', '+1', false, -300, ['Toronto', 'Montréal', "St. John's"]),
  country('MX', 'MEX', 'Mexico', 'MXN', '+52', false, -360, ['Ciudad de México', 'Guadalajara', 'Mérida']),
  country('BR', 'BRA', 'Brazil', 'BRL', '+55', false, -180, ['São Paulo', 'Rio de Janeiro', 'Belém']),
  country('AR', 'ARG', 'Argentina', 'ARS', '+54', false, -180, ['Buenos Aires', 'Córdoba']),
  country('GB', 'GBR', 'United Kingdom', 'GBP', '+44', false, 0, [
    'London',
    'Manchester',
    'Edinburgh',
    'Cardiff',
  ]),
  country('IE', 'IRL', 'Ireland', 'EUR', '+353', true, 0, ['Dublin', 'Cork', 'Galway']),
  country('FR', 'FRA', 'France', 'EUR', '+33', true, 60, ['Paris', 'Lyon', 'Orléans', 'Besançon']),
  country('DE', 'DEU', 'Germany', 'EUR', '+49', true, 60, ['Berlin', 'München', 'Köln', 'Düsseldorf']),
  country('NL', 'NLD', 'Netherlands', 'EUR', '+31', true, 60, ['Amsterdam', 'Utrecht', "'s-Hertogenbosch"]),
  country('BE', 'BEL', 'Belgium', 'EUR', '+32', true, 60, ['Brussels', 'Liège', 'Gent']),
  country('CH', 'CHE', 'Switzerland', 'CHF', '+41', false, 60, ['Zürich', 'Genève', 'Bern']),
  country('AT', 'AUT', 'Austria', 'EUR', '+43', true, 60, ['Wien', 'Graz', 'Innsbruck']),
  country('ES', 'ESP', 'Spain', 'EUR', '+34', true, 60, ['Madrid', 'Málaga', 'A Coruña']),
  country('PT', 'PRT', 'Portugal', 'EUR', '+351', true, 0, ['Lisboa', 'Porto']),
  country('IT', 'ITA', 'Italy', 'EUR', '+39', true, 60, ['Roma', 'Milano', 'Forlì']),
  country('DK', 'DNK', 'Denmark', 'DKK', '+45', true, 60, ['København', 'Aarhus']),
  country('SE', 'SWE', 'Sweden', 'SEK', '+46', true, 60, ['Stockholm', 'Göteborg', 'Malmö']),
  country('NO', 'NOR', 'Norway', 'NOK', '+47', false, 60, ['Oslo', 'Tromsø', 'Bergen']),
  country('FI', 'FIN', 'Finland', 'EUR', '+358', true, 120, ['Helsinki', 'Tampere']),
  country('IS', 'ISL', 'Iceland', 'ISK', '+354', false, 0, ['Reykjavík']),
  country('PL', 'POL', 'Poland', 'PLN', '+48', true, 60, ['Warszawa', 'Kraków', 'Łódź']),
  country('CZ', 'CZE', 'Czechia', 'CZK', '+420', true, 60, ['Praha', 'Brno']),
  country('TR', 'TUR', 'Türkiye', 'TRY', '+90', false, 180, ['İstanbul', 'Ankara']),
  country('CI', 'CIV', "Côte d'Ivoire", 'XOF', '+225', false, 0, ['Abidjan', 'Yamoussoukro']),
  country('IN', 'IND', 'India', 'INR', '+91', false, 330, ['Mumbai', 'Bengaluru', 'Delhi']),
  country('JP', 'JPN', 'Japan', 'JPY', '+81', false, 540, ['東京', '大阪', 'Kyoto']),
  country('CN', 'CHN', 'China', 'CNY', '+86', false, 480, ['北京', '上海']),
  country('KR', 'KOR', 'South Korea', 'KRW', '+82', false, 540, ['서울', 'Busan']),
  country('AU', 'AUS', 'Australia', 'AUD', '+61', false, 600, ['Sydney', 'Melbourne', 'Perth']),
  country('NZ', 'NZL', 'New Zealand', 'NZD', '+64', false, 720, ['Auckland', 'Wellington']),
];

function country(
  code: string,
  iso3: string,
  name: string,
  currency: string,
  phonePrefix: string,
  isEuMember: boolean,
  offsetMinutes: number,
  cities: readonly string[],
): DemoCountry {
  return { code, iso3, name, currency, phonePrefix, isEuMember, offsetMinutes, cities };
}

// Customers come mostly from these, so the country filter has a realistic skew.
// prettier-ignore
export const BUSY_COUNTRY_CODES: readonly string[] = ['US', 'US', 'US', 'GB', 'DE', 'DE', 'FR', 'CA', 'NL', 'AU'];

// prettier-ignore
export const FIRST_NAMES: readonly string[] = [
  'James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth',
  'David', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Daniel', 'Nancy', 'Matthew', 'Lisa', 'Anthony', 'Emma', 'Mark', 'Olivia', 'Paul', 'Sophie', 'Liam', 'Mia',
  'Noah', 'Ava', 'Lucas', 'Hannah', 'Oliver', 'Anna', 'Elias', 'Laura', 'Zoë', 'José', 'Jürgen', 'François',
  'Søren', 'Małgorzata', 'Chloé', 'Siobhán', 'Björn', 'Ana', 'Yuki', '美咲', '翔太', 'Ngọc', 'Ahmet', 'Priya',
  'Łukasz', 'Renée', 'Mateo', 'Fatima',
];

// prettier-ignore
export const LAST_NAMES: readonly string[] = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor',
  'Thomas', 'Moore', 'Martin', 'Jackson', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Walker', 'Young',
  'King', 'Wright', 'Scott', 'Green', 'Baker', 'Adams', 'Nelson', 'Hill', 'Campbell', "O'Brien", "D'Angelo",
  'Müller', 'Schröder', 'García', 'Núñez', 'Østergaard', 'Nguyễn', '山田', '佐藤', 'Kowalski', 'van der Berg',
  'Smith-Jones', 'Lefèvre', 'Rossi', 'Öztürk', 'Dubois', 'Jensen', 'Novák', 'Silva',
];

// prettier-ignore
export const EMAIL_DOMAINS: readonly string[] = ['example.com', 'example.org', 'example.net', 'mail.example.com'];

/** Free-text customer notes; most customers have none. */
export const CUSTOMER_NOTES: readonly string[] = [
  'Prefers "express" delivery, please ring twice.',
  'Called about bulk pricing:\nwill follow up next quarter.',
  "VIP - don't send paper catalogues.",
  'Allergic to latex; pack without gloves 🧤',
  'Address line 2: "Building C, 3rd floor"\nDoor code: 4711',
  'Pays by invoice, net 30, cc: accounting@example.com',
  'Customer wrote: "Great service, thanks!" 😊',
  'Comma, "quote", and a\r\nCRLF line break',
  'Tab\tseparated\tnote',
  'Spricht Deutsch; bitte Rückruf nach 17 Uhr.',
  '日本語での連絡を希望',
];

/** The category tree: top-level categories (with a two-letter SKU code) and their leaf categories' product nouns. */
export interface DemoCategory {
  name: string;
  code: string;
  description: string | null;
  children: readonly { name: string; description: string | null; nouns: readonly string[] }[];
}

export const CATEGORY_TREE: readonly DemoCategory[] = [
  {
    name: 'Kitchen',
    code: 'KT',
    description: 'Everything for cooking, baking and serving.',
    children: [
      {
        name: 'Cookware',
        description: 'Pans, pots and "everything in between".',
        nouns: ['Frying Pan', 'Saucepan', 'Dutch Oven', 'Wok', 'Stockpot'],
      },
      {
        name: 'Cutlery',
        description: null,
        nouns: ['Chef\'s Knife 8"', 'Bread Knife', 'Paring Knife', 'Knife Block', 'Steak Knives, set of 4'],
      },
      {
        name: 'Tableware',
        description: 'Plates, bowls & cups.',
        nouns: ['Dinner Plate', 'Espresso Cup', 'Salad Bowl', 'Teapot', 'Café au Lait Bowl'],
      },
      {
        name: 'Baking',
        description: null,
        nouns: ['Baking Tray', 'Muffin Tin', 'Rolling Pin', 'Mixing Bowl', 'Crème Brûlée Ramekin'],
      },
    ],
  },
  {
    name: 'Home & Living',
    code: 'HL',
    description: 'Textiles, lighting and décor.',
    children: [
      {
        name: 'Lighting',
        description: 'Lamps and bulbs.',
        nouns: ['Desk Lamp', 'Floor Lamp', 'Pendant Light', 'LED Bulb', 'Lantern'],
      },
      {
        name: 'Textiles',
        description: null,
        nouns: ['Throw Blanket', 'Cushion Cover', 'Bath Towel', 'Duvet Cover', 'Table Runner'],
      },
      {
        name: 'Décor',
        description: 'Small things that make a home.',
        nouns: ['Vase', 'Picture Frame', 'Wall Clock', 'Candle Holder', 'Mirror'],
      },
    ],
  },
  {
    name: 'Office',
    code: 'OF',
    description: 'Paper, pens and desk organisation.',
    children: [
      {
        name: 'Paper',
        description: null,
        nouns: ['Notebook, A5, dotted', 'Sticky Notes', 'Legal Pad', 'Sketchbook', 'Envelopes, 50 pack'],
      },
      {
        name: 'Writing',
        description: 'Pens, pencils and markers.',
        nouns: ['Fountain Pen', 'Gel Pen', 'Highlighter', 'Mechanical Pencil', 'Fineliner'],
      },
      {
        name: 'Desk',
        description: null,
        nouns: ['Desk Organizer', 'Monitor Stand', 'Letter Tray', 'Stapler', 'Cable Tidy'],
      },
    ],
  },
  {
    name: 'Outdoor',
    code: 'OD',
    description: 'Garden, camping and picnic gear.',
    children: [
      {
        name: 'Garden',
        description: null,
        nouns: ['Watering Can', 'Pruning Shears', 'Planter', 'Garden Hose', 'Kneeling Pad'],
      },
      {
        name: 'Camping',
        description: 'Sleep under the stars.',
        nouns: ['Tent', 'Sleeping Bag', 'Camping Stove', 'Headlamp', 'Water Bottle'],
      },
    ],
  },
  {
    name: 'Electronics',
    code: 'EL',
    description: 'Small gadgets and accessories.',
    children: [
      {
        name: 'Audio',
        description: null,
        nouns: ['Headphones', 'Bluetooth Speaker', 'Earbuds', 'Radio', 'Turntable'],
      },
      {
        name: 'Accessories',
        description: 'Cables, chargers, cases.',
        nouns: ['USB-C Cable', 'Power Bank', 'Phone Case', 'Wall Charger', 'Laptop Sleeve'],
      },
      {
        name: 'Smart Home',
        description: null,
        nouns: ['Smart Plug', 'Thermostat', 'Door Sensor', 'Smart Bulb', 'Camera'],
      },
    ],
  },
  {
    name: 'Toys & Games',
    code: 'TG',
    description: 'For kids and the young at heart 🎲',
    children: [
      {
        name: 'Puzzles',
        description: null,
        nouns: ['Jigsaw Puzzle, 1000 pieces', 'Puzzle Cube', 'Brain Teaser', 'Floor Puzzle'],
      },
      {
        name: 'Board Games',
        description: 'Family favourites.',
        nouns: ['Chess Set', 'Backgammon', 'Card Game', 'Strategy Game', 'Mahjong 麻将 Set'],
      },
    ],
  },
];

// prettier-ignore
export const PRODUCT_ADJECTIVES: readonly string[] = [
  'Classic', 'Deluxe', 'Compact', 'Premium', 'Everyday', 'Nordic', 'Vintage', 'Essential', 'Pro', 'Eco',
  'Heritage', 'Urban', 'Café', 'Alpine', 'Studio', 'Coastal', 'Signature', 'Mini', 'Grand', 'Über',
];

// prettier-ignore
export const PRODUCT_MATERIALS: readonly string[] = [
  'Oak', 'Walnut', 'Bamboo', 'Stainless Steel', 'Cast Iron', 'Ceramic', 'Linen', 'Cotton', 'Glass', 'Copper',
  'Recycled Plastic', 'Wool', 'Leather', 'Aluminium', 'Porcelain',
];

export const COLORS: readonly { name: string; code: string }[] = [
  { name: 'Black', code: 'BLK' },
  { name: 'White', code: 'WHT' },
  { name: 'Blue', code: 'BLU' },
  { name: 'Red', code: 'RED' },
  { name: 'Green', code: 'GRN' },
  { name: 'Grey', code: 'GRY' },
  { name: 'Natural', code: 'NAT' },
  { name: 'Yellow', code: 'YEL' },
];

export const DESCRIPTION_SENTENCES: readonly string[] = [
  'Built to last and easy to clean.',
  'A customer favourite since we first stocked it.',
  'Designed in Copenhagen, made in Portugal.',
  'Dishwasher safe; hand washing keeps the finish longer.',
  'Comes with a 2-year warranty, no questions asked.',
  'Our buyers call it "the one you keep for decades".',
  'Light, sturdy, and surprisingly affordable.',
  'Each piece is finished by hand, so small variations are normal.',
  'Packed in 100% recycled cardboard, without plastic fillers.',
  'Pairs well with the rest of the range: mix, match, repeat.',
  'Note: colours may look slightly different on screen.',
  'Größe und Gewicht können leicht abweichen.',
];

// prettier-ignore
export const SUPPLIER_NAMES: readonly string[] = [
  'Nordic Home Supply AB', 'Smith & Sons, Ltd.', 'Müller Haushaltswaren GmbH', '山田商事株式会社',
  'Café Crème Imports', "O'Connor Textiles", 'Pacific Outdoor Co.', 'Lumière Éclairage SARL',
  'Kowalski Papiernia Sp. z o.o.', 'Blue Harbor Trading', 'Greenleaf Garden Goods', 'Andersen Audio ApS',
  'Sierra Camping Gear', 'Atelier "Le Crayon"', 'Brightwire Electronics', 'Costa Cerámica S.L.',
  'Maple & Pine Woodworks', 'Rossi Cucina S.p.A.', 'Dragon Gate Toys 龙门', 'Quokka Games Pty Ltd',
];

// prettier-ignore
export const STREET_NAMES: readonly string[] = [
  'Harbour Road', 'Industriestraße', 'Rue de la Paix', 'Main Street', 'Calle Mayor', 'Kings Way', 'Via Roma',
  'Storgatan', 'Mill Lane', 'Ōdōri',
];

// prettier-ignore
export const TAG_NAMES: readonly string[] = [
  'bestseller', 'new', 'eco-friendly', 'gift idea', 'sale', 'limited', 'handmade', 'fragile', 'bulky',
  'für Kinder', '限定', '🔥 hot', 'staff pick', 'vegan', 'made in EU', 'fair trade', 'back in stock',
  'clearance', 'premium', 'bundle', 'seasonal', 'outdoor-ready', 'dishwasher safe', "editor's choice",
];

export const REVIEW_TITLES: Readonly<Record<1 | 2 | 3 | 4 | 5, readonly string[]>> = {
  1: ['Broke after a week', 'Not as described', 'Very disappointed', 'Would not buy again'],
  2: ['Meh', 'Expected more', 'Okay-ish, but overpriced', 'Arrived damaged'],
  3: ['Does the job', 'Average', 'Fine for the price', 'Mixed feelings'],
  4: ['Really good', 'Nice quality', 'Almost perfect', 'Très bien'],
  5: ['Love it!', 'Perfect 👌', 'Best purchase this year', 'Sehr gut! Würde wieder kaufen.', '最高です'],
};

export const REVIEW_BODIES: readonly string[] = [
  'Exactly what I needed.',
  'Good value for money, delivery was quick.',
  'The colour is a bit darker than on the photo, otherwise great.',
  'I bought two: one for me, one as a gift. Both happy!',
  'Pros:\n- solid\n- looks great\nCons:\n- a little heavy',
  'My partner said "finally, a decent one", which says it all.',
  'Took 3 weeks to arrive, but worth the wait.',
  'Stopped working after a month; support replaced it, no fuss.',
  'Très bon produit, livraison rapide.',
  'とても良い商品です。また買いたいです。',
  'Does what it says on the tin 🙂',
  'Smaller than expected, 4/5 anyway.',
  'Instructions were only in Swedish, so I guessed. Worked out fine, mostly.',
  'Returned it: the "stainless" steel rusted.',
];

export const GIFT_MESSAGES: readonly string[] = [
  'Happy birthday, Anna! 🎉',
  'Merry Christmas,\nlove from "the twins"',
  "Congrats on the new job - you've earned it!",
  'Alles Gute zum Geburtstag, Jürgen!',
  '生日快乐！',
  'For the best teacher, with thanks.',
  'Bon appétit, et à bientôt !',
  'Get well soon ❤️',
];
