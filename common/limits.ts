/** The specification's numbers (page sizes, timings, lengths) as named constants. */

/** Page sizes the browser offers; the first is the default. */
export const PAGE_SIZES = [20, 40, 60, 80, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** The grid shows at most this many columns, indexed columns first. */
export const GRID_MAX_COLUMNS = 8;
/** A grid column's width in CSS pixels, when set (a saved view's, the address's cols=). */
export const COLUMN_WIDTH_MIN = 48;
export const COLUMN_WIDTH_MAX = 1200;
/** The grid's pages ask values cut to this many characters (`?cutText=`, docs/decisions/0066-cut-values.md): what a
 * cell's title shows at most, so a cell reads the same cut or whole; the value panel and the row editor read the
 * row whole by its key. */
export const GRID_CUT_TEXT = 5000;
/** Text columns longer than this (or unlimited) get an 8-row textarea. */
export const TEXTAREA_THRESHOLD = 500;
/** Lists and comboboxes load this many items first and this many more at the end. */
export const LAZY_LOAD_SIZE = 25;
/** Role and user administration pages. */
export const ADMIN_PAGE_SIZE = 20;
/** Roles with an Id at or below this are built in and cannot be deleted. */
export const BUILT_IN_ROLE_MAX_ID = 3;
/** Links one role may have (docs/decisions/0015-link-segments.md): every call of its users matches them. */
export const ROLE_MAX_LINKS = 200;
/** Characters of a link or TableId as stored, names percent-encoded: a MySQL schema and table of 64 non-ASCII
 * characters each encode to 576 characters apiece, so a table link stays within this. */
export const LINK_MAX_LENGTH = 2000;
/** Segments of a link: /db/{db}/{schema}/{table}/* has 5; the app's own pages have 2. */
export const LINK_MAX_SEGMENTS = 8;

export const SEARCH_DEBOUNCE_MS = 250;
export const COMBOBOX_DEBOUNCE_MS = 150;
export const EXPORT_POLL_DELAY_MS = 2000;

/** Session: refresh within this of expiry; idle tick, alert and auto-logout. */
export const SESSION_REFRESH_BEFORE_MS = 5 * 60 * 1000;
/**
 * The shortest wait between two verifications: the refresh is planned right after one was received, so the browser's
 * clock, if it runs ahead of the server's by more than the session's life, would otherwise verify in a loop.
 */
export const SESSION_REFRESH_AT_LEAST_MS = 60 * 1000;
export const IDLE_TICK_MS = 10_000;
export const IDLE_ALERT_TICKS = 150;
export const IDLE_LOGOUT_AFTER_ALERT_MS = 300_000;
/** Browser storage key of the session (base64-encoded verification). */
export const SESSION_STORAGE_KEY = 'UTOKEN';

export const OTP_LENGTH = 6;
export const EMAIL_CODE_LIFETIME_MS = 15 * 60 * 1000;
export const RESEND_LOCK_MS = 60_000;
/** Phone entry: +1, then boxes of 3, 3 and 4 digits (spec 000 §5). */
export const PHONE_COUNTRY_CODE = '+1';
export const PHONE_GROUPS = [3, 3, 4] as const;

export const PASSWORD_MIN_LENGTH = 8;
export const EMAIL_MAX_LENGTH = 250;
export const NAME_MAX_LENGTH = 50;
export const CONTACT_SUBJECT_MAX_LENGTH = 50;
export const CONTACT_MESSAGE_MAX_LENGTH = 1000;

export const CHAT_MESSAGE_LIMIT = 10;
export const COOKIE_CONSENT_KEY = 'accept-cookies-v1';
export const COOKIE_REJECTION_DAYS = 30;
export const MOBILE_BREAKPOINT_PX = 576;

export const TOAST_TIMEOUT_MS = 3000;
export const TOAST_FADE_MS = 500;
export const MODAL_FADE_MS = 300;

/** Spec 001 §9: the header's account menu is 10rem wide; the mobile menu (offcanvas) takes 75% of the width and
 * slides in over 300 ms after 100 ms. */
export const ACCOUNT_MENU_WIDTH = '10rem';
export const MOBILE_MENU_WIDTH = '75%';
export const OFFCANVAS_MS = 300;
export const OFFCANVAS_DELAY_MS = 100;
