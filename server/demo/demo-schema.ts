// The demo database's schema: a small shop. The declared types are SQL Server's names on purpose (SQLite keeps the
// declared text), so that one database exercises every column-type group the browser and the row form handle:
// text of several lengths, every number kind, every date and time kind, bit, binary, image, guid, identity,
// computed columns, nullable columns, foreign keys, a composite-key link table, and unique and composite indexes.

/** The demo tables, parents before children (the order they are created and seeded in). */
export const DEMO_TABLES = [
  'countries',
  'order_statuses',
  'categories',
  'tags',
  'suppliers',
  'products',
  'product_images',
  'product_tags',
  'customers',
  'product_reviews',
  'orders',
  'order_lines',
] as const;

/** One of the demo table names. */
export type DemoTable = (typeof DEMO_TABLES)[number];

/** Raised whenever the schema or the seeded data changes, so an older demo file is rebuilt. */
export const DEMO_SCHEMA_VERSION = 1;

/** CREATE TABLE statements, one per table, in DEMO_TABLES order. */
export const DEMO_TABLE_DDL: Readonly<Record<DemoTable, string>> = {
  // Lookup with a natural CHAR key and no identity.
  countries: `
    CREATE TABLE countries (
      country_code   CHAR(2)       NOT NULL PRIMARY KEY,
      iso3           NCHAR(3)      NOT NULL,
      name           NVARCHAR(100) NOT NULL,
      currency_code  CHAR(3)       NOT NULL,
      phone_prefix   VARCHAR(6)    NOT NULL,
      is_eu_member   BIT           NOT NULL DEFAULT 0
    )`,
  // Lookup with a TINYINT key that is not an identity.
  order_statuses: `
    CREATE TABLE order_statuses (
      status_id    TINYINT      NOT NULL PRIMARY KEY,
      name         VARCHAR(20)  NOT NULL,
      description  NVARCHAR(200) NULL,
      is_final     BIT          NOT NULL
    )`,
  // Self-referencing tree; top-level categories carry a small icon, sub-categories a NULL one.
  categories: `
    CREATE TABLE categories (
      category_id         INTEGER      PRIMARY KEY AUTOINCREMENT,
      name                NVARCHAR(50) NOT NULL,
      parent_category_id  INT          NULL REFERENCES categories (category_id),
      description         NTEXT        NULL,
      sort_order          TINYINT      NOT NULL,
      is_active           BIT          NOT NULL DEFAULT 1,
      icon                IMAGE        NULL
    )`,
  tags: `
    CREATE TABLE tags (
      tag_id      INTEGER      PRIMARY KEY,
      name        NVARCHAR(20) NOT NULL,
      color_rgb   BINARY(3)    NOT NULL,
      created_at  DATETIME     NOT NULL
    )`,
  suppliers: `
    CREATE TABLE suppliers (
      supplier_id      INTEGER       PRIMARY KEY,
      name             NVARCHAR(200) NOT NULL,
      contact_name     NVARCHAR(100) NULL,
      contact_email    VARCHAR(254)  NULL,
      phone            NVARCHAR(20)  NULL,
      country_code     CHAR(2)       NOT NULL REFERENCES countries (country_code),
      address          VARCHAR(1000) NULL,
      rating           DECIMAL(3,1)  NULL,
      payment_terms_days SMALLINT    NOT NULL,
      is_preferred     BIT           NOT NULL,
      signing_key      VARBINARY(64) NULL,
      contract_start   DATE          NOT NULL,
      contract_signed_at DATETIMEOFFSET NULL
    )`,
  products: `
    CREATE TABLE products (
      product_id        INTEGER        PRIMARY KEY AUTOINCREMENT,
      sku               CHAR(12)       NOT NULL,
      name              NVARCHAR(200)  NOT NULL,
      short_name        NVARCHAR(20)   NOT NULL,
      category_id       INT            NOT NULL REFERENCES categories (category_id),
      supplier_id       INT            NULL REFERENCES suppliers (supplier_id),
      description       VARCHAR(1000)  NULL,
      specifications    TEXT           NULL,
      unit_price        DECIMAL(10,2)  NOT NULL,
      unit_cost         SMALLMONEY     NOT NULL,
      list_price        MONEY          NOT NULL,
      weight_kg         REAL           NULL,
      average_rating    FLOAT          NULL,
      stock_quantity    SMALLINT       NOT NULL,
      reorder_level     TINYINT        NOT NULL,
      barcode_checksum  BIGINT         NOT NULL,
      is_discontinued   BIT            NOT NULL DEFAULT 0,
      introduced_on     DATE           NOT NULL,
      last_restocked_at SMALLDATETIME  NULL,
      updated_at        TIMESTAMP      NOT NULL,
      margin            DECIMAL(10,2)  GENERATED ALWAYS AS (ROUND(unit_price - unit_cost, 2)) VIRTUAL
    )`,
  product_images: `
    CREATE TABLE product_images (
      image_id     INTEGER       PRIMARY KEY AUTOINCREMENT,
      product_id   INT           NOT NULL REFERENCES products (product_id) ON DELETE CASCADE,
      sort_order   TINYINT       NOT NULL,
      image        IMAGE         NOT NULL,
      file_name    NVARCHAR(200) NOT NULL,
      file_type    VARCHAR(50)   NOT NULL,
      width        SMALLINT      NOT NULL,
      height       SMALLINT      NOT NULL,
      byte_size    INT           NOT NULL,
      sha256       BINARY(32)    NOT NULL,
      alt_text     NVARCHAR(200) NULL,
      is_primary   BIT           NOT NULL,
      uploaded_at  DATETIME2     NOT NULL
    )`,
  // Link table: composite primary key, no identity and no guid (so the row form makes every column read-only).
  product_tags: `
    CREATE TABLE product_tags (
      product_id  INT     NOT NULL REFERENCES products (product_id) ON DELETE CASCADE,
      tag_id      INT     NOT NULL REFERENCES tags (tag_id) ON DELETE CASCADE,
      added_on    DATE    NOT NULL,
      weight      TINYINT NOT NULL DEFAULT 1,
      PRIMARY KEY (product_id, tag_id)
    )`,
  customers: `
    CREATE TABLE customers (
      customer_id        INTEGER          PRIMARY KEY AUTOINCREMENT,
      customer_guid      UNIQUEIDENTIFIER NOT NULL,
      first_name         NVARCHAR(50)     NOT NULL,
      last_name          NVARCHAR(50)     NOT NULL,
      email              VARCHAR(254)     NOT NULL,
      phone              NVARCHAR(20)     NULL,
      city               NVARCHAR(100)    NOT NULL,
      postal_code        VARCHAR(10)      NULL,
      country_code       CHAR(2)          NOT NULL REFERENCES countries (country_code),
      birth_date         DATE             NULL,
      loyalty_points     INT              NOT NULL DEFAULT 0,
      credit_limit       MONEY            NULL,
      is_active          BIT              NOT NULL DEFAULT 1,
      marketing_opt_in   BIT              NOT NULL DEFAULT 0,
      preferred_contact_time TIME         NULL,
      notes              NTEXT            NULL,
      created_at         DATETIME2        NOT NULL,
      last_login_at      DATETIMEOFFSET   NULL,
      full_name          NVARCHAR(101)    GENERATED ALWAYS AS (first_name || ' ' || last_name) VIRTUAL
    )`,
  // Keyed by a guid only, no identity.
  product_reviews: `
    CREATE TABLE product_reviews (
      review_id      UNIQUEIDENTIFIER NOT NULL PRIMARY KEY,
      product_id     INT              NOT NULL REFERENCES products (product_id) ON DELETE CASCADE,
      customer_id    INT              NOT NULL REFERENCES customers (customer_id),
      rating         TINYINT          NOT NULL CHECK (rating BETWEEN 1 AND 5),
      title          NVARCHAR(200)    NULL,
      body           NTEXT            NULL,
      helpful_votes  INT              NOT NULL DEFAULT 0,
      is_verified_purchase BIT        NOT NULL,
      created_at     DATETIMEOFFSET   NOT NULL
    )`,
  orders: `
    CREATE TABLE orders (
      order_id           INTEGER          PRIMARY KEY AUTOINCREMENT,
      order_guid         UNIQUEIDENTIFIER NOT NULL,
      order_number       CHAR(10)         NOT NULL,
      customer_id        INT              NOT NULL REFERENCES customers (customer_id),
      status_id          TINYINT          NOT NULL REFERENCES order_statuses (status_id),
      order_date         DATETIME         NOT NULL,
      required_date      DATE             NULL,
      shipped_at         DATETIMEOFFSET   NULL,
      delivery_window_start TIME          NULL,
      ship_city          NVARCHAR(100)    NOT NULL,
      ship_country_code  CHAR(2)          NOT NULL REFERENCES countries (country_code),
      shipping_cost      SMALLMONEY       NOT NULL,
      discount_rate      NUMERIC(5,4)     NOT NULL DEFAULT 0,
      total_due          MONEY            NULL,
      payment_reference  BIGINT           NULL,
      tracking_number    VARCHAR(50)      NULL,
      is_gift            BIT              NOT NULL DEFAULT 0,
      gift_message       NVARCHAR(200)    NULL
    )`,
  // The big table (over 100,000 rows) for paging, search and export.
  order_lines: `
    CREATE TABLE order_lines (
      order_line_id  INTEGER        PRIMARY KEY,
      order_id       INT            NOT NULL REFERENCES orders (order_id) ON DELETE CASCADE,
      line_number    SMALLINT       NOT NULL,
      product_id     INT            NOT NULL REFERENCES products (product_id),
      quantity       SMALLINT       NOT NULL CHECK (quantity > 0),
      unit_price     DECIMAL(10,2)  NOT NULL,
      discount_rate  NUMERIC(5,4)   NOT NULL DEFAULT 0,
      line_total     DECIMAL(12,2)  GENERATED ALWAYS AS (ROUND(quantity * unit_price * (1 - discount_rate), 2)) STORED
    )`,
};

/** Index statements, run after seeding (building an index once is faster than maintaining it row by row). */
export const DEMO_INDEX_DDL: readonly string[] = [
  'CREATE UNIQUE INDEX ux_countries_name ON countries (name)',
  'CREATE UNIQUE INDEX ux_order_statuses_name ON order_statuses (name)',
  'CREATE UNIQUE INDEX ux_categories_parent_name ON categories (parent_category_id, name)',
  'CREATE UNIQUE INDEX ux_tags_name ON tags (name)',
  'CREATE INDEX ix_suppliers_name ON suppliers (name)',
  'CREATE INDEX ix_suppliers_country ON suppliers (country_code)',
  'CREATE UNIQUE INDEX ux_products_sku ON products (sku)',
  'CREATE INDEX ix_products_name ON products (name)',
  'CREATE INDEX ix_products_category_price ON products (category_id, unit_price)',
  'CREATE INDEX ix_products_supplier ON products (supplier_id)',
  'CREATE UNIQUE INDEX ux_product_images_product_sort ON product_images (product_id, sort_order)',
  'CREATE INDEX ix_product_tags_tag ON product_tags (tag_id)',
  'CREATE UNIQUE INDEX ux_customers_guid ON customers (customer_guid)',
  'CREATE UNIQUE INDEX ux_customers_email ON customers (email)',
  'CREATE INDEX ix_customers_name ON customers (last_name, first_name)',
  'CREATE INDEX ix_customers_city ON customers (city)',
  'CREATE INDEX ix_customers_country ON customers (country_code)',
  'CREATE INDEX ix_customers_created_at ON customers (created_at)',
  'CREATE INDEX ix_product_reviews_product_created ON product_reviews (product_id, created_at)',
  'CREATE INDEX ix_product_reviews_customer ON product_reviews (customer_id)',
  'CREATE UNIQUE INDEX ux_orders_guid ON orders (order_guid)',
  'CREATE UNIQUE INDEX ux_orders_number ON orders (order_number)',
  'CREATE INDEX ix_orders_customer_date ON orders (customer_id, order_date)',
  'CREATE INDEX ix_orders_date ON orders (order_date)',
  'CREATE INDEX ix_orders_status ON orders (status_id)',
  'CREATE INDEX ix_orders_ship_country ON orders (ship_country_code)',
  'CREATE UNIQUE INDEX ux_order_lines_order_line ON order_lines (order_id, line_number)',
  'CREATE INDEX ix_order_lines_product ON order_lines (product_id)',
];
