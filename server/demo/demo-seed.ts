// Fills the demo schema with deterministic rows: one function per table, each with its own seeded random source so
// that changing one table's data leaves the others byte-for-byte the same.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { demoImage } from './demo-images.ts';
import { DemoRandom } from './demo-random.ts';
import type { DemoTable } from './demo-schema.ts';
import {
  dateText,
  dateTime2Text,
  dateTimeOffsetText,
  dateTimeText,
  smallDateTimeText,
  timeText,
  timestampText,
  utc,
} from './demo-dates.ts';
import {
  BUSY_COUNTRY_CODES,
  CATEGORY_TREE,
  COLORS,
  COUNTRIES,
  CUSTOMER_NOTES,
  DESCRIPTION_SENTENCES,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  GIFT_MESSAGES,
  LAST_NAMES,
  PRODUCT_ADJECTIVES,
  PRODUCT_MATERIALS,
  REVIEW_BODIES,
  REVIEW_TITLES,
  STREET_NAMES,
  SUPPLIER_NAMES,
  TAG_NAMES,
  type DemoCountry,
} from './demo-words.ts';

/** How many rows the larger tables get. */
export const DEMO_ROW_TARGETS = {
  suppliers: 60,
  products: 600,
  customers: 5_000,
  productReviews: 4_000,
  orders: 26_000,
} as const;

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The demo data is "as of" this instant: nothing happens after it. */
const DATA_END = utc(2026, 1, 1);
const STATUS = { pending: 1, paid: 2, shipped: 3, delivered: 4, cancelled: 5, returned: 6 } as const;

type SqlValue = string | number | bigint | Buffer | null;

interface LeafCategory {
  id: number;
  code: string;
  nouns: readonly string[];
}
interface ProductFact {
  id: number;
  sku: string;
  name: string;
  unitPrice: number;
  introducedMs: number;
}
interface CustomerFact {
  id: number;
  createdMs: number;
  city: string;
  country: DemoCountry;
}
interface OrderFact {
  id: number;
  discountRate: number;
}

/** Seeds every demo table inside the caller's transaction and returns the row count of each. */
export function seedDemoData(db: Database.Database): Record<DemoTable, number> {
  const countries = seedCountries(db);
  const orderStatuses = seedOrderStatuses(db);
  const categories = seedCategories(db);
  const tags = seedTags(db);
  const suppliers = seedSuppliers(db);
  const products = seedProducts(db, categories.leaves, suppliers);
  const productImages = seedProductImages(db, products);
  const productTags = seedProductTags(db, products, tags);
  const customers = seedCustomers(db);
  const productReviews = seedProductReviews(db, products, customers);
  const orders = seedOrders(db, customers);
  const orderLines = seedOrderLines(db, orders, products);
  return {
    countries,
    order_statuses: orderStatuses,
    categories: categories.count,
    tags,
    suppliers,
    products: products.length,
    product_images: productImages,
    product_tags: productTags,
    customers: customers.length,
    product_reviews: productReviews,
    orders: orders.length,
    order_lines: orderLines,
  };
}

/** Fills the columns that summarise other tables (order totals, product ratings); run once indexes exist. */
export function seedDerivedColumns(db: Database.Database): void {
  db.exec(`
    UPDATE orders SET total_due = ROUND(totals.subtotal + orders.shipping_cost, 2)
    FROM (SELECT order_id, SUM(line_total) AS subtotal FROM order_lines GROUP BY order_id) AS totals
    WHERE totals.order_id = orders.order_id AND orders.status_id <> ${STATUS.cancelled};
    UPDATE products SET average_rating = ratings.average
    FROM (SELECT product_id, AVG(rating) AS average FROM product_reviews GROUP BY product_id) AS ratings
    WHERE ratings.product_id = products.product_id;
  `);
}

function seedCountries(db: Database.Database): number {
  const writer = new TableWriter(db, 'countries', [
    'country_code',
    'iso3',
    'name',
    'currency_code',
    'phone_prefix',
    'is_eu_member',
  ]);
  for (const country of COUNTRIES) {
    writer.add([
      country.code,
      country.iso3,
      country.name,
      country.currency,
      country.phonePrefix,
      bit(country.isEuMember),
    ]);
  }
  return writer.finish();
}

function seedOrderStatuses(db: Database.Database): number {
  const writer = new TableWriter(db, 'order_statuses', ['status_id', 'name', 'description', 'is_final']);
  const rows: readonly SqlValue[][] = [
    [STATUS.pending, 'Pending', 'Placed, waiting for payment.', 0],
    [STATUS.paid, 'Paid', 'Payment received; being picked & packed.', 0],
    [STATUS.shipped, 'Shipped', 'Handed to the carrier.', 0],
    [STATUS.delivered, 'Delivered', null, 1],
    [STATUS.cancelled, 'Cancelled', "Cancelled before shipping, so there's no charge.", 1],
    [STATUS.returned, 'Returned', 'Sent back and refunded.', 1],
  ];
  rows.forEach((row) => writer.add(row));
  return writer.finish();
}

function seedCategories(db: Database.Database): { count: number; leaves: LeafCategory[] } {
  const writer = new TableWriter(db, 'categories', [
    'category_id',
    'name',
    'parent_category_id',
    'description',
    'sort_order',
    'is_active',
    'icon',
  ]);
  const leaves: LeafCategory[] = [];
  let id = 0;
  CATEGORY_TREE.forEach((top, topIndex) => {
    const topId = ++id;
    const icon = demoImage({ size: 32, seed: 1_000 + topIndex, label: top.code });
    writer.add([topId, top.name, null, top.description, topIndex + 1, 1, icon]);
    top.children.forEach((child, childIndex) => {
      const childId = ++id;
      writer.add([childId, child.name, topId, child.description, childIndex + 1, 1, null]);
      leaves.push({ id: childId, code: top.code, nouns: child.nouns });
    });
  });
  // An inactive, empty category: something to filter out.
  writer.add([
    ++id,
    'Seasonal',
    null,
    'Retired in 2023.\nKept for old reports.',
    CATEGORY_TREE.length + 1,
    0,
    null,
  ]);
  return { count: writer.finish(), leaves };
}

function seedTags(db: Database.Database): number {
  const random = randomFor('tags');
  const writer = new TableWriter(db, 'tags', ['tag_id', 'name', 'color_rgb', 'created_at']);
  TAG_NAMES.forEach((name, index) => {
    const createdMs = utc(2017, 1, 1) + random.int(0, 700) * DAY + random.int(0, DAY - 1);
    writer.add([index + 1, name, random.bytes(3), dateTimeText(createdMs)]);
  });
  return writer.finish();
}

function seedSuppliers(db: Database.Database): number {
  const random = randomFor('suppliers');
  const writer = new TableWriter(db, 'suppliers', [
    'supplier_id',
    'name',
    'contact_name',
    'contact_email',
    'phone',
    'country_code',
    'address',
    'rating',
    'payment_terms_days',
    'is_preferred',
    'signing_key',
    'contract_start',
    'contract_signed_at',
  ]);
  const suffixes = ['', ' Europe', ' International'];
  for (let index = 0; index < DEMO_ROW_TARGETS.suppliers; index++) {
    const country = random.pick(COUNTRIES);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const baseName = SUPPLIER_NAMES[index % SUPPLIER_NAMES.length] ?? 'Supplier';
    const suffix = suffixes[Math.floor(index / SUPPLIER_NAMES.length) % suffixes.length] ?? '';
    const address = `${random.int(1, 250)} ${random.pick(STREET_NAMES)}\n${random.int(10000, 99999)} ${random.pick(country.cities)}\n${country.name}`;
    const contractStartMs = utc(2015, 1, 1) + random.int(0, 1800) * DAY;
    writer.add([
      index + 1,
      baseName + suffix,
      random.chance(0.1) ? null : `${first} ${last}`,
      random.chance(0.15) ? null : `${emailLocalPart(first, last)}@example.org`,
      random.chance(0.1) ? null : phoneNumber(random, country),
      country.code,
      random.chance(0.1) ? null : address,
      random.chance(0.1) ? null : random.decimal(1, 5, 1),
      random.pick([15, 30, 45, 60, 90]),
      bit(random.chance(0.25)),
      random.chance(0.3) ? null : random.bytes(random.pick([32, 64])),
      dateText(contractStartMs),
      random.chance(0.2)
        ? null
        : dateTimeOffsetText(
            contractStartMs - random.int(1, 30) * DAY + random.int(8, 17) * HOUR,
            country.offsetMinutes,
          ),
    ]);
  }
  return writer.finish();
}

function seedProducts(
  db: Database.Database,
  leaves: readonly LeafCategory[],
  supplierCount: number,
): ProductFact[] {
  const random = randomFor('products');
  const writer = new TableWriter(db, 'products', [
    'product_id',
    'sku',
    'name',
    'short_name',
    'category_id',
    'supplier_id',
    'description',
    'specifications',
    'unit_price',
    'unit_cost',
    'list_price',
    'weight_kg',
    'stock_quantity',
    'reorder_level',
    'barcode_checksum',
    'is_discontinued',
    'introduced_on',
    'last_restocked_at',
    'updated_at',
  ]);
  const products: ProductFact[] = [];
  for (let id = 1; id <= DEMO_ROW_TARGETS.products; id++) {
    const leaf = random.pick(leaves);
    const noun = random.pick(leaf.nouns);
    const material = random.chance(0.5) ? random.pick(PRODUCT_MATERIALS) : null;
    const color = random.pick(COLORS);
    const name = `${random.pick(PRODUCT_ADJECTIVES)} ${material ? `${material} ` : ''}${noun}${random.chance(0.4) ? `, ${color.name}` : ''}`;
    const sku = `${leaf.code}-${String(id).padStart(5, '0')}-${color.code}`;
    // Prices from 2.99 to 899.99, spread evenly on a log scale (many cheap items, a few dear ones).
    const unitPrice = (Math.round(Math.exp(Math.log(3) + random.next() * Math.log(300))) * 100 - 1) / 100;
    const weight = random.chance(0.1) ? null : random.decimal(0.05, 12, 3);
    const introducedMs = utc(2016, 1, 1) + random.int(0, 1095) * DAY;
    const specifications = [
      `Colour: ${color.name}`,
      `Material: ${material ?? 'Mixed'}`,
      weight === null ? null : `Weight: ${weight} kg`,
      `Dimensions: ${random.int(5, 80)} × ${random.int(5, 80)} × ${random.int(1, 40)} cm`,
      `Care: "${random.pick(['Hand wash', 'Wipe clean', 'Machine wash, 30 °C', 'Do not wash'])}"`,
    ].filter((line) => line !== null);
    writer.add([
      id,
      sku,
      name,
      [...noun].slice(0, 20).join('').trimEnd(),
      leaf.id,
      random.chance(0.05) ? null : random.int(1, supplierCount),
      random.chance(0.1) ? null : productDescription(random),
      random.chance(0.2) ? null : specifications.join('\n'),
      unitPrice,
      Math.round(unitPrice * random.decimal(0.35, 0.7, 3) * 10_000) / 10_000,
      Math.round(unitPrice * (1 + random.pick([0, 0, 0.1, 0.2, 0.25])) * 100) / 100,
      weight,
      random.chance(0.08) ? 0 : random.int(1, 5_000),
      random.int(1, 10) * 5,
      fnv1a64(sku),
      bit(random.chance(0.05)),
      dateText(introducedMs),
      random.chance(0.2) ? null : smallDateTimeText(utc(2024, 1, 1) + random.int(0, 700 * 24 * 60) * 60_000),
      timestampText(utc(2025, 1, 1) + random.int(0, 364 * 86_400) * 1000),
    ]);
    products.push({ id, sku, name, unitPrice, introducedMs });
  }
  writer.finish();
  return products;
}

function seedProductImages(db: Database.Database, products: readonly ProductFact[]): number {
  const random = randomFor('product_images');
  const writer = new TableWriter(db, 'product_images', [
    'image_id',
    'product_id',
    'sort_order',
    'image',
    'file_name',
    'file_type',
    'width',
    'height',
    'byte_size',
    'sha256',
    'alt_text',
    'is_primary',
    'uploaded_at',
  ]);
  const size = 48;
  let id = 0;
  for (const product of products) {
    if (!random.chance(0.3)) continue;
    const count = random.weighted([1, 2, 3], [65, 25, 10]);
    for (let sortOrder = 1; sortOrder <= count; sortOrder++) {
      const image = demoImage({ size, seed: product.id * 10 + sortOrder, label: initials(product.name) });
      const uploadedMs = product.introducedMs + random.int(0, 2_000) * DAY + random.int(0, DAY - 1);
      writer.add([
        ++id,
        product.id,
        sortOrder,
        image,
        `${product.sku.toLowerCase()}-${sortOrder}.png`,
        'image/png',
        size,
        size,
        image.length,
        createHash('sha256').update(image).digest(),
        random.chance(0.3) ? null : `${product.name}, view ${sortOrder}`,
        bit(sortOrder === 1),
        dateTime2Text(Math.min(uploadedMs, DATA_END - DAY), random.int(0, 9_999)),
      ]);
    }
  }
  return writer.finish();
}

function seedProductTags(db: Database.Database, products: readonly ProductFact[], tagCount: number): number {
  const random = randomFor('product_tags');
  const writer = new TableWriter(db, 'product_tags', ['product_id', 'tag_id', 'added_on', 'weight']);
  for (const product of products) {
    const tagIds = new Set<number>();
    const wanted = random.weighted([0, 1, 2, 3, 4], [15, 25, 30, 18, 12]);
    while (tagIds.size < wanted) tagIds.add(random.int(1, tagCount));
    for (const tagId of tagIds) {
      writer.add([
        product.id,
        tagId,
        dateText(product.introducedMs + random.int(0, 1_500) * DAY),
        random.int(1, 5),
      ]);
    }
  }
  return writer.finish();
}

function seedCustomers(db: Database.Database): CustomerFact[] {
  const random = randomFor('customers');
  const writer = new TableWriter(db, 'customers', [
    'customer_id',
    'customer_guid',
    'first_name',
    'last_name',
    'email',
    'phone',
    'city',
    'postal_code',
    'country_code',
    'birth_date',
    'loyalty_points',
    'credit_limit',
    'is_active',
    'marketing_opt_in',
    'preferred_contact_time',
    'notes',
    'created_at',
    'last_login_at',
  ]);
  const signUps = spreadOver(random, utc(2018, 1, 1), utc(2025, 7, 1), DEMO_ROW_TARGETS.customers);
  const emails = new Set<string>();
  const customers: CustomerFact[] = [];
  for (let id = 1; id <= DEMO_ROW_TARGETS.customers; id++) {
    const createdMs = signUps();
    const country = random.chance(0.7)
      ? countryByCode(random.pick(BUSY_COUNTRY_CODES))
      : random.pick(COUNTRIES);
    const city = random.pick(country.cities);
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const email = uniqueEmail(random, emails, first, last, id);
    writer.add([
      id,
      random.guid(),
      first,
      last,
      email,
      random.chance(0.15) ? null : phoneNumber(random, country),
      city,
      random.chance(0.1) ? null : String(random.int(1_000, 99_999)).padStart(5, '0'),
      country.code,
      random.chance(0.2) ? null : dateText(utc(1940, 1, 1) + random.int(0, 66 * 365) * DAY),
      random.chance(0.2) ? 0 : random.int(1, 25_000),
      random.chance(0.6) ? null : random.int(5, 200) * 100,
      bit(random.chance(0.93)),
      bit(random.chance(0.4)),
      random.chance(0.7) ? null : timeText(random.int(18, 37) * 30),
      random.chance(0.06) ? random.pick(CUSTOMER_NOTES) : null,
      dateTime2Text(createdMs, random.int(0, 9_999)),
      random.chance(0.15)
        ? null
        : dateTimeOffsetText(
            createdMs + Math.floor(random.next() * (DATA_END - createdMs)),
            country.offsetMinutes,
          ),
    ]);
    customers.push({ id, createdMs, city, country });
  }
  writer.finish();
  return customers;
}

function seedProductReviews(
  db: Database.Database,
  products: readonly ProductFact[],
  customers: readonly CustomerFact[],
): number {
  const random = randomFor('product_reviews');
  const writer = new TableWriter(db, 'product_reviews', [
    'review_id',
    'product_id',
    'customer_id',
    'rating',
    'title',
    'body',
    'helpful_votes',
    'is_verified_purchase',
    'created_at',
  ]);
  const popularity = popularityPicker(random, products);
  for (let index = 0; index < DEMO_ROW_TARGETS.productReviews; index++) {
    const customer = random.pick(customers);
    const rating = random.weighted([1, 2, 3, 4, 5] as const, [5, 7, 15, 33, 40]);
    const fromMs = Math.max(customer.createdMs, utc(2019, 1, 1));
    writer.add([
      random.guid(),
      popularity().id,
      customer.id,
      rating,
      random.chance(0.1) ? null : random.pick(REVIEW_TITLES[rating]),
      random.chance(0.15) ? null : random.pick(REVIEW_BODIES),
      random.chance(0.4) ? 0 : Math.floor(random.next() ** 3 * 200),
      bit(random.chance(0.7)),
      dateTimeOffsetText(
        fromMs + Math.floor(random.next() * (DATA_END - fromMs)),
        customer.country.offsetMinutes,
      ),
    ]);
  }
  return writer.finish();
}

function seedOrders(db: Database.Database, customers: readonly CustomerFact[]): OrderFact[] {
  const random = randomFor('orders');
  const writer = new TableWriter(db, 'orders', [
    'order_id',
    'order_guid',
    'order_number',
    'customer_id',
    'status_id',
    'order_date',
    'required_date',
    'shipped_at',
    'delivery_window_start',
    'ship_city',
    'ship_country_code',
    'shipping_cost',
    'discount_rate',
    'payment_reference',
    'tracking_number',
    'is_gift',
    'gift_message',
  ]);
  const orderTimes = spreadOver(random, utc(2019, 1, 1), DATA_END - HOUR, DEMO_ROW_TARGETS.orders);
  const orders: OrderFact[] = [];
  let knownCustomers = 0;
  for (let id = 1; id <= DEMO_ROW_TARGETS.orders; id++) {
    const orderMs = orderTimes();
    // Only customers who had signed up by then can order (customers are sorted by creation time).
    while (
      knownCustomers < customers.length &&
      (customers[knownCustomers]?.createdMs ?? Infinity) <= orderMs
    ) {
      knownCustomers++;
    }
    const customer = customers[random.int(0, Math.max(1, knownCustomers) - 1)];
    if (customer === undefined) throw new Error('The demo orders need at least one customer');
    const shipsHome = random.chance(0.85);
    const shipCountry = shipsHome ? customer.country : random.pick(COUNTRIES);
    const status = orderStatus(random, DATA_END - orderMs);
    const shipped = status === STATUS.shipped || status === STATUS.delivered || status === STATUS.returned;
    const isGift = random.chance(0.08);
    const discountRate = random.chance(0.75) ? 0 : random.pick([0.05, 0.1, 0.125, 0.15, 0.2]);
    writer.add([
      id,
      random.guid(),
      `SO-${String(id).padStart(7, '0')}`,
      customer.id,
      status,
      dateTimeText(orderMs),
      random.chance(0.3) ? null : dateText(orderMs + random.int(5, 14) * DAY),
      shipped
        ? dateTimeOffsetText(
            Math.min(orderMs + random.int(6 * HOUR, 4 * DAY), DATA_END - 1),
            shipCountry.offsetMinutes,
          )
        : null,
      random.chance(0.6) ? null : timeText(random.int(8, 18) * 60),
      shipsHome ? customer.city : random.pick(shipCountry.cities),
      shipCountry.code,
      random.pick([0, 4.95, 7.5, 9.99, 14.5, 24.99]),
      discountRate,
      status === STATUS.pending ? null : BigInt.asUintN(63, random.int64()),
      shipped ? trackingNumber(random) : null,
      bit(isGift),
      isGift && random.chance(0.7) ? random.pick(GIFT_MESSAGES) : null,
    ]);
    orders.push({ id, discountRate });
  }
  writer.finish();
  return orders;
}

function seedOrderLines(
  db: Database.Database,
  orders: readonly OrderFact[],
  products: readonly ProductFact[],
): number {
  const random = randomFor('order_lines');
  const writer = new TableWriter(db, 'order_lines', [
    'order_line_id',
    'order_id',
    'line_number',
    'product_id',
    'quantity',
    'unit_price',
    'discount_rate',
  ]);
  const popularity = popularityPicker(random, products);
  let id = 0;
  for (const order of orders) {
    const lineCount = random.weighted([1, 2, 3, 4, 5, 6, 7], [10, 14, 16, 18, 16, 14, 12]);
    const chosen = new Set<ProductFact>();
    while (chosen.size < lineCount) chosen.add(popularity());
    let lineNumber = 0;
    for (const product of chosen) {
      const onSale = random.chance(0.03);
      writer.add([
        ++id,
        order.id,
        ++lineNumber,
        product.id,
        random.weighted([1, 2, 3, 4, 5, 10, 12, 24, 50], [60, 20, 8, 4, 3, 2, 1, 1, 1]),
        onSale ? Math.round(product.unitPrice * 80) / 100 : product.unitPrice,
        order.discountRate,
      ]);
    }
  }
  return writer.finish();
}

/** Rows per multi-row INSERT: one native call per batch instead of per row makes inserting about a third faster. */
const BATCH_ROWS = 100;

/** Inserts one table's rows in batches through prepared statements (identifiers are constants here, never input).
 * Call `finish` once at the end: it writes the last partial batch and returns the number of rows. */
class TableWriter {
  private readonly pending: SqlValue[] = [];
  private readonly batch: Database.Statement<SqlValue[]>;
  private readonly single: Database.Statement<SqlValue[]>;
  private rows = 0;

  constructor(
    db: Database.Database,
    table: DemoTable,
    private readonly columns: readonly string[],
  ) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
    this.batch = db.prepare<SqlValue[]>(insert + Array.from({ length: BATCH_ROWS }, () => row).join(', '));
    this.single = db.prepare<SqlValue[]>(insert + row);
  }

  add(values: readonly SqlValue[]): void {
    if (values.length !== this.columns.length) throw new Error(`Expected ${this.columns.length} values`);
    this.pending.push(...values);
    this.rows++;
    if (this.pending.length === BATCH_ROWS * this.columns.length) {
      this.batch.run(...this.pending);
      this.pending.length = 0;
    }
  }

  finish(): number {
    for (let start = 0; start < this.pending.length; start += this.columns.length) {
      this.single.run(...this.pending.slice(start, start + this.columns.length));
    }
    this.pending.length = 0;
    return this.rows;
  }
}

function randomFor(table: DemoTable): DemoRandom {
  return new DemoRandom(Number(BigInt.asUintN(32, fnv1a64(`dbui-demo:${table}`))));
}

function bit(value: boolean): number {
  return value ? 1 : 0;
}

/** Returns `count` increasing instants between `fromMs` and `toMs`, one per call: evenly spread, with jitter. */
function spreadOver(random: DemoRandom, fromMs: number, toMs: number, count: number): () => number {
  const step = (toMs - fromMs) / count;
  let index = 0;
  return () => fromMs + Math.floor(step * (index++ + random.next()));
}

/** Picks products with a long-tail skew: a few are bought often, most rarely. */
function popularityPicker(random: DemoRandom, products: readonly ProductFact[]): () => ProductFact {
  const ranked = [...products];
  for (let index = ranked.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    const here = ranked[index];
    const there = ranked[other];
    if (here === undefined || there === undefined) continue;
    ranked[index] = there;
    ranked[other] = here;
  }
  return () => ranked[Math.floor(random.next() ** 1.7 * ranked.length)] ?? random.pick(ranked);
}

function orderStatus(random: DemoRandom, ageMs: number): number {
  if (ageMs < 2 * DAY) return random.chance(0.6) ? STATUS.pending : STATUS.paid;
  if (ageMs < 7 * DAY) return random.chance(0.3) ? STATUS.paid : STATUS.shipped;
  return random.weighted([STATUS.delivered, STATUS.cancelled, STATUS.returned], [88, 6, 6]);
}

function productDescription(random: DemoRandom): string {
  // Mostly short; one in twenty long enough (over 500 characters) to need the textarea's scrolling.
  const wanted = random.chance(0.05) ? DESCRIPTION_SENTENCES.length : random.int(1, 4);
  const remaining = [...DESCRIPTION_SENTENCES];
  const picked: string[] = [];
  while (picked.length < wanted && remaining.length > 0) {
    picked.push(...remaining.splice(random.int(0, remaining.length - 1), 1));
  }
  return picked.join(' ').slice(0, 1000);
}

function phoneNumber(random: DemoRandom, country: DemoCountry): string {
  return `${country.phonePrefix} ${random.int(100, 999)} ${random.int(100, 9_999)} ${random.int(1_000, 9_999)}`;
}

function trackingNumber(random: DemoRandom): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  let text = '1Z';
  for (let index = 0; index < 16; index++) text += alphabet[random.int(0, alphabet.length - 1)] ?? '0';
  return text;
}

function uniqueEmail(
  random: DemoRandom,
  taken: Set<string>,
  first: string,
  last: string,
  id: number,
): string {
  const local = emailLocalPart(first, last);
  const domain = random.pick(EMAIL_DOMAINS);
  const tag = random.chance(0.05) ? '+shop' : '';
  let email = `${local}${tag}@${domain}`;
  if (taken.has(email)) email = `${local}${id}${tag}@${domain}`;
  taken.add(email);
  return email;
}

/** `Zoë O'Brien` becomes `zoe.obrien`; names without Latin letters fall back to `customer`. */
function emailLocalPart(first: string, last: string): string {
  const parts = [first, last].map((part) => asciiFold(part)).filter((part) => part.length > 0);
  return parts.length > 0 ? parts.join('.') : 'customer';
}

function asciiFold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** Up to two capital letters from a product name's first words, for the picture's label. */
function initials(name: string): string {
  return name
    .split(' ')
    .map((word) => asciiFold(word).charAt(0))
    .filter((character) => character.length > 0)
    .slice(0, 2)
    .join('')
    .toUpperCase();
}

function countryByCode(code: string): DemoCountry {
  const country = COUNTRIES.find((candidate) => candidate.code === code);
  if (!country) throw new Error(`Unknown demo country ${code}`);
  return country;
}

/** The 64-bit FNV-1a hash of a string as a signed BIGINT: a stable "checksum" that often exceeds 2^53. */
function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = BigInt.asUintN(64, hash * 0x100000001b3n);
  }
  return BigInt.asIntN(64, hash);
}
