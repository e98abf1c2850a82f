/** The specification's user-facing texts, word for word, in one place (spec README: "keep them as named constants"). */

// Shell, transport, administration and site texts live in shell-messages.ts (the first chunk of every page).
export { adminMessages, shellMessages, siteMessages, transportMessages } from './shell-messages.ts';

/** Generic form validation. */
export const formMessages = {
  fieldHasErrors: 'This field has errors',
  invalidForm: 'Invalid form... Please try again.',
  required: (column: string) => `${column} is required.`,
  tooLong: (column: string, n: number) => `${column} cannot be more than ${n} characters.`,
} as const;

/** Sign-in, sign-up and account fields. */
export const accountMessages = {
  usernameRequired: 'Username is required.',
  invalidCharacters: 'Contains invalid characters.',
  passwordRequired: 'Password is required.',
  passwordMin: 'Password must be at least 8 characters.',
  passwordNumber: 'Password must contain a number.',
  passwordLowercase: 'Password must contain a lowercase letter.',
  passwordUppercase: 'Password must contain a uppercase letter.',
  passwordSymbol: 'Password must contain a symbol.',
  passwordsMustMatch: 'Passwords must match.',
  passwordConfirmRequired: 'Password Confirm is required.',
  emailRequired: 'Email is required.',
  emailMax: 'Email must be less than 250 characters.',
  emailInvalid: 'Invalid Email Address.',
  firstNameMax: 'First Name must be less than 50 characters.',
  lastNameMax: 'Last Name must be less than 50 characters.',
  otpRequired: 'OTP is required.',
  otpSixDigits: 'OTP is a 6 digit code.',
  phoneRequired: 'Phone is required.',
  phoneInvalid: 'Invalid Phone Number.',
  loginFailed: 'Failed to login... Please try again.',
  otpFailed: 'Failed to validate OTP.',
  resendFailed: 'Failed to resend... Please try again.',
  /** The original always said 5 minutes while locking for 60 s; ours says how long is left (spec README). */
  resendWait: (seconds: number) => `Please wait ${seconds} seconds before resending OTP.`,
  logoutFailed: 'Failed to logout... Please try again.',
  forgotPasswordFailed: 'Failed to Forgot Password... Please try again.',
  updatePasswordFailed: 'Failed to Update Password... Please try again.',
  passwordExpired: 'Password has expired. Please create a new one.',
  preferred2faFailed: 'Failed to update preferred 2FA.',
  preferred2faUpdated: 'Successfully updated preferred 2FA.',
  userUpdateFailed: 'Failed to update user.',
  userUpdated: 'Successfully updated user.',
  userDeleteFailed: 'Failed to delete user.',
  somethingWentWrong: 'Something went wrong',
  pleaseTryAgain: (message: string) => `${message}. Please try again.`,
} as const;

/** The account API's own sentences (the spec leaves the server's messages open; these say what to do). */
export const accountApiMessages = {
  signInRequired: 'Sign in to continue.',
  adminRequired: 'Only administrators can do that.',
  reauthRequired: 'Confirm your password to continue.',
  xsrfMissing: 'The request is missing its XSRF token: reload the page and try again.',
  tooManyRequests: (seconds: number) =>
    `Too many attempts from your address. Please wait ${seconds} seconds and try again.`,
  humanCheckFailed: 'The human check failed or expired. Please try again.',
  usernameTaken: 'That username is already taken. Please choose another.',
  passwordTooCommon: 'This password is too common. Please choose another.',
  passwordUnchanged: 'The new password must be different from the current one.',
  passwordUpdated: 'Your password was updated.',
  signupDone: 'Your account was created. Enter the code sent to your email to confirm it.',
  forgotPasswordSent: 'If the account exists, a code was sent to its email address.',
  signInAlreadyComplete: 'This sign-in is already complete: its code has been used.',
  codeSent: 'A new code was sent.',
  codeSentTo: (where: string) => `A code was sent to ${where}.`,
  noCodeForTotp: 'The authenticator app makes its own codes: open it to see the current one.',
  methodNotAllowed: 'That sign-in method is not set up for this account.',
  methodNotVerified: 'Set up and verify this method before making it preferred.',
  methodVerified: (method: string) => `${method} verified.`,
  recoveryCodeFormat: 'A recovery code is 10 letters and digits.',
  recoveryCodesIssued:
    'Keep these recovery codes somewhere safe: each works once, and they will not be shown again.',
  totpSetupFirst: 'Scan the QR code with your authenticator app first.',
  codeExpired: 'That code has expired or was replaced. Please request a new one.',
  reauthDone: 'Thank you. You can continue for the next 10 minutes.',
  passwordWrong: 'That password is not right. Please try again.',
  reauthMethod: 'Confirm with your password or your authenticator app.',
  signedOut: 'You are signed out.',
  accountDeleted: 'Your account and everything that belonged to it were deleted.',
  lastAdministrator:
    'You are the only administrator: make another user an administrator before deleting your account.',
  imageTooLarge: (megabytes: number) => `The image must be smaller than ${megabytes} MB.`,
  imageType: 'The image must be a PNG, JPEG, GIF or WebP file.',
  imageUnreadable:
    'The image cannot be read: the file is damaged or not really a PNG, JPEG, GIF or WebP image.',
  imageTooManyPixels: (megapixels: number) =>
    `The image has too many pixels: choose one of at most ${megapixels} megapixels.`,
  accountGone: 'This account no longer exists.',
  recoveryNextStep:
    'The emailed code is right. Now confirm it is you with your second step, as when you sign in, or a recovery code.',
  passwordChangeFirst: 'Set a new password first: your password must be changed before anything else.',
  secondStepLinkInvalid:
    'This sign-in link is not valid, was used already or has expired: ask your administrator for a new one.',
} as const;

/** Database browser, row editor and export. */
export const browserMessages = {
  databasesFailed: 'Failed to get databases.',
  noDatabase: 'No database was found.',
  tableInfoFailed: 'Failed to get table information.',
  pageFailed: 'Failed to get page.',
  exportFailed: 'Failed to export.',
  exportCompleted: 'Export Completed Successfully.',
  rowUpdateFailed: 'Failed to update row.',
  rowUpdated: 'Successfully updated row.',
  rowDeleteFailed: 'Failed to delete row.',
  rowDeleted: 'Successfully deleted row.',
  cannotDeleteWithPendingChanges: 'Cannot delete with pending changes.',
  pendingChanges: 'You have pending changes... ',
  savedChanges: 'Successfully saved changes.',
  saveFailed: 'Failed to save changes.',
  noOptions: 'No Options Available',
  deleteRowTitle: 'Delete Row Confirmation',
  deleteRowMessage: 'Are you sure you want to delete this row? This can NOT be undone.',
} as const;

/** The export API's own sentences (issue 6): each says what happened and what to do. */
export const exportMessages = {
  started: 'The export has started.',
  alreadyRunning: 'An export is already running: wait for it to finish or cancel it.',
  notFound: 'That export was not found. Start a new export.',
  restarted: 'The server restarted during the export. Please export again.',
  cancelled: 'The export was cancelled.',
  alreadyEnded: 'That export has already ended, so there is nothing to cancel.',
  databaseGone: 'The database of this export is no longer registered. Please export again.',
  failed:
    'The export stopped because the database or the export file could not be read or written. Please try again.',
  folderFull:
    'The export stopped because the server has no room left for export files. Ask an administrator to free space, or export fewer rows.',
  linkInvalid:
    'This download link has expired or was already used. Read the export status again for a new link.',
  notOwner: 'Only the person who started this export can download it.',
  sessionEnded:
    'This export is no longer available: the sign-in that started it has ended. Sign in and export again.',
  fileGone: 'The export file is no longer kept (exports are removed after 24 hours). Please export again.',
} as const;

/** Social sign-in with Google, Microsoft, Facebook and any OpenID Connect provider (docs/decisions/0005-accounts.md,
 * 0060). */
export const socialMessages = {
  notConfigured: (provider: string) => `Sign-in with ${provider} is not set up on this server.`,
  cancelled: (provider: string) => `Sign-in with ${provider} was cancelled.`,
  stateInvalid: 'This sign-in has expired or was already used. Please start again.',
  notConfirmed: (provider: string) => `${provider} could not confirm who you are. Please try again.`,
  unavailable: (provider: string) => `${provider} cannot be reached right now. Please try again later.`,
  noEmail: (provider: string) =>
    `Your ${provider} account did not share an email address, which DBUI needs to send sign-in codes. ` +
    'Allow access to your email and try again.',
  linkedElsewhere: (provider: string) =>
    `That ${provider} account is already linked to another DBUI account.`,
  otherLinked: (provider: string) =>
    `Another ${provider} account is already linked to your account. Unlink it first.`,
  linked: (provider: string) => `${provider} is now linked to your account.`,
  unlinked: (provider: string) => `${provider} is no longer linked to your account.`,
  notLinked: (provider: string) => `No ${provider} account is linked to your account.`,
  lastWayIn: (provider: string) =>
    `${provider} is the only way to sign in to this account. Set a password first (use Forgot password), then unlink it.`,
} as const;

/** Passkeys (WebAuthn; docs/decisions/0009-passkeys.md). */
export const passkeyMessages = {
  added: 'Passkey added. You can sign in with it now.',
  removed: 'Passkey removed.',
  notFound: 'That passkey was not found.',
  challengeInvalid: 'This passkey request has expired or was already used. Please try again.',
  responseUnreadable: 'The answer of the passkey could not be read. Please try again.',
  registrationFailed: 'The passkey could not be verified. Please try again.',
  alreadyRegistered: 'This passkey is already registered.',
  tooMany: (max: number) => `An account can have at most ${max} passkeys. Remove one first.`,
  unknownPasskey:
    'This passkey is not registered here. Sign in with your password, or choose another passkey.',
  needsHostName:
    'Passkeys need PUBLIC_URL with a host name, not an IP address (for example http://localhost:8080).',
  useItsOwnRoute: 'A passkey is checked by POST /api/account/login/passkey/verify with the pre-sign-in key.',
  keyOrCeremony:
    'Send either ceremonyId (a passkey sign-in) or key (a passkey after the password), not both.',
} as const;

/** The HTTP edge's own sentences: bodies and addresses the server cannot take (issue 10, findings 3, 4, 7). */
export const requestMessages = {
  bodyEmpty: 'The request body is empty. Send a JSON object.',
  bodyNotJson: (problem: string | null) =>
    `The request body is not valid JSON${problem ? ` (${problem})` : ''}. Check its quotes, commas and brackets.`,
  bodyTooDeep: (levels: number) =>
    `The request body nests objects or arrays more than ${levels} levels deep. Send a flatter JSON value.`,
  bodyForbiddenKey: 'The request body may not use "__proto__" or "constructor" with "prototype" as a key.',
  bodyTooLarge: (size: string) => `The request body is larger than the ${size} this call accepts.`,
  bodyLengthWrong: 'The request body is not as long as its Content-Length header says. Send it again.',
  unsupportedMediaType: 'This call takes a JSON body. Send it with Content-Type: application/json.',
  addressBroken:
    'The address has a % that is not followed by two hexadecimal digits. Encode each part with encodeURIComponent.',
  refused: (status: number, requestId: string) =>
    `The server could not take this request (HTTP ${status}). It was logged with request id ${requestId}.`,
  serverFailed: (requestId: string) =>
    `Something went wrong on the server. It was logged with request id ${requestId}.`,
} as const;

/** When the app's own store cannot be written (a full disk, read-only storage): reading goes on (decision 0013). */
export const storeMessages = {
  cannotSave:
    'DBUI cannot save anything right now: its own storage is full or read-only. Reading still works; try again later.',
  notWritable: 'The app store cannot be written: sign-in and changes fail until it can, reading still works.',
} as const;

/** A save or delete that carried the row's version against a row changed since it was read (decision 0045). */
export const rowVersionMessages = {
  changedSince:
    'Someone else changed this row after you opened it, so your changes were not saved. Compare their values with yours and choose which to keep.',
  changedSinceDelete:
    'Someone else changed this row after you opened it, so it was not deleted. Look at the row as it is now and delete it again if you still want to.',
  notAVersion: (key: string) =>
    `${key} must be the row's version exactly as the page or row answer gave it (text), or left out.`,
} as const;

/** A row sent to be saved with the marks of a page's cut values (docs/decisions/0066-cut-values.md). */
export const cutMessages = {
  cutRowSent: (key: string) =>
    `This row was read with some values cut short (${key}), so saving it could cut them in the database. Read the row whole (without cutText) and send it without ${key}.`,
} as const;

/** What /api/health says of a part that is down: plain words for a public answer; the driver's text is logged. */
export const healthMessages = {
  storeDown: 'The app store does not answer.',
  storeNotWritable: 'The app store answers but cannot be written.',
  databaseDown: 'The database does not answer.',
  redisDown: 'Redis does not answer.',
  /** GET /api/health/ready when something it needs is down: the sentences above, after this. */
  notReady: 'Not ready, send no traffic here:',
} as const;

/** The session's idle alert (spec 000 §4: an 'Idle Alert' modal answered with 'Yes!'). */
export const sessionMessages = {
  idleTitle: 'Idle Alert',
  idleQuestion: 'You have been idle for a while. Are you still there?',
  idleYes: 'Yes!',
} as const;

/** The second step of signing in and the phone entry (spec 000 §2, §4, §5). The method names are the spec's card
 * names (Email, Phone, App); the spec has no words for the rest, so these say plainly what each control does. */
export const twoFactorMessages = {
  methodLabels: {
    Email: 'Email',
    Phone: 'Phone',
    Totp: 'App',
    Passkey: 'Passkey',
    Recovery: 'Recovery code',
  },
  methodDescriptions: {
    Email: 'A code sent to your email address',
    Phone: 'A code sent to your phone by text message',
    Totp: 'A code from your authenticator app',
    Passkey: 'Your passkey on this device or a security key',
    Recovery: 'One of the recovery codes you saved',
  },
  methodChoice: 'Choose how to confirm it is you',
  codeLabel: 'One-time code',
  codeDigit: (position: number, length: number) => `Digit ${position} of ${length}`,
  recoveryLabel: 'Recovery code',
  recoveryPlaceholder: 'xxxxx-xxxxx',
  verify: 'Verify',
  codeExpiresIn: 'Code expires in',
  codeExpired: 'The code has expired. Resend it to get a new one.',
  resend: 'Resend code',
  resendIn: (time: string) => `Resend in ${time}`,
  phoneCountryCode: '+1',
  phoneAreaCode: 'Area code',
  phonePrefix: 'First three digits',
  phoneLine: 'Last four digits',
} as const;

/** The account page (/account): re-authentication, profile, linked sign-in providers and account deletion. */
export const accountPageMessages = {
  reauthTitle: 'Confirm it is you',
  reauthIntro:
    'This change needs a recent sign-in. Confirm with your password, or a code of your authenticator app.',
  reauthPassword: 'Password',
  reauthApp: 'Authenticator app',
  reauthCode: 'Code from your authenticator app',
  reauthConfirm: 'Confirm',
  cancel: 'Cancel',
  close: 'Close',
  detailsTitle: 'Account Details',
  profileImage: 'Profile image',
  noImage: 'No profile image yet.',
  chooseImage: 'Choose image',
  removeImage: 'Remove image',
  imageHint: 'PNG, JPEG, GIF or WebP, up to 1 MB.',
  imageNotSaved: 'The new image is saved with Save.',
  username: 'Username',
  email: 'Email',
  emailReadOnly: 'Your email changes in Security, where it is confirmed by a code.',
  password: 'Password',
  changePassword: 'Change password',
  firstName: 'First Name',
  lastName: 'Last Name',
  roles: 'Roles',
  noRoles: 'No roles yet.',
  rolesFailed: 'Your roles could not be loaded.',
  save: 'Save',
  discard: 'Discard changes',
  pendingChanges: 'You have unsaved changes.',
  accountFailed: 'Your account could not be loaded.',
  retry: 'Try again',
  socialTitle: 'Linked sign-in accounts',
  socialIntro: 'Sign in with one of these accounts as well as with your password.',
  socialNone: 'No social sign-in providers are set up on this server.',
  socialLinked: (email: string | null, date: string) =>
    email ? `Linked as ${email} on ${date}` : `Linked on ${date}`,
  socialNotLinked: 'Not linked',
  socialLink: (provider: string) => `Link ${provider}`,
  socialUnlink: (provider: string) => `Unlink ${provider}`,
  socialLinkButton: 'Link',
  socialUnlinkButton: 'Unlink',
  loading: 'Loading…',
  myAccount: 'My Account',
  socialFailed: 'The linked accounts could not be loaded.',
  deleteTitle: 'Delete Account',
  deleteWarning:
    'Deleting your account cannot be undone: your profile, sign-in methods, sessions and all data related to your account are deleted.',
  deleteButton: 'Delete Account',
  deleteConfirmTitle: 'Delete Account Confirmation',
  deleteConfirmMessage:
    'Are you sure you want to delete your account? This can NOT be undone, and all related data will be deleted.',
  deleteConfirm: 'Delete my account',
} as const;

/** The account page's Security section (spec 000 §2, §4): the Email, Phone and App cards, passkeys and recovery
 * codes. The spec names the cards and the preferred-method toasts; these say plainly what each control does. */
export const securityMessages = {
  title: 'Security',
  intro:
    'Choose how you confirm it is you when you sign in. Set up one or more methods and make one of them preferred.',
  cardTitles: { Email: 'Email', Phone: 'Phone', Totp: 'App' },
  cardDescriptions: {
    Email: 'A code sent to your email address.',
    Phone: 'A code sent to your phone by text message.',
    Totp: 'A code from an authenticator app such as Google Authenticator, Authy or 1Password.',
  },
  verified: 'Verified',
  notSetUp: 'Not set up',
  preferred: 'Preferred',
  added: (date: string) => `Added ${date}`,
  setUp: 'Set up',
  redo: 'Set up again',
  cancel: 'Cancel',
  makePreferred: 'Make preferred',
  cannotPreferUnverified: 'Verify this method first.',
  emailLabel: 'Email address',
  phoneLabel: 'Phone number',
  sendCode: 'Send code',
  changeEmail: 'Use another address',
  changePhone: 'Use another number',
  codeSentTo: (where: string) => `Enter the code sent to ${where}.`,
  appStart: 'Show QR code',
  appScan: 'Scan this QR code with your authenticator app, then enter the code it shows.',
  appQrAlt: 'QR code for your authenticator app',
  appKeyLabel: 'Or type this key into the app',
  appOpenLink: 'Open in an authenticator app on this device',
  copy: 'Copy',
  copied: 'Copied',
  copyKey: 'Copy key',
  passkeysTitle: 'Passkeys',
  passkeysDescription:
    'Sign in with your fingerprint, face, screen lock or a security key instead of a password and code.',
  passkeysNone: 'No passkeys yet.',
  passkeysUnsupported: 'This browser cannot create passkeys.',
  passkeyNameLabel: 'Name for the new passkey',
  passkeyNamePlaceholder: 'e.g. Work laptop',
  passkeyAdd: 'Add a passkey',
  passkeyCreated: (date: string) => `Added ${date}`,
  passkeyLastUsed: (date: string) => `Last used ${date}`,
  passkeyNeverUsed: 'Never used',
  passkeyRemove: 'Remove',
  passkeyRemoveLabel: (name: string) => `Remove passkey ${name}`,
  passkeyRemoveTitle: 'Remove passkey',
  passkeyRemoveQuestion: (name: string) =>
    `Remove the passkey "${name}"? You can no longer sign in with it, and your other sessions end.`,
  passkeyCancelled: 'The passkey was not created: the request was cancelled or timed out.',
  passkeyFailed: 'The passkey could not be created. Please try again.',
  passkeysLoadFailed: 'Your passkeys could not be loaded.',
  recoveryTitle: 'Recovery codes',
  recoveryDescription:
    'If you lose your phone or authenticator app, sign in with one of these codes. Each code works once.',
  recoveryLeft: (left: number, total: number) => `${left} of ${total} codes left.`,
  recoveryNone: 'You get recovery codes when you verify your first method.',
  recoveryRegenerate: 'Get new codes',
  recoveryRegenerateTitle: 'Get new recovery codes',
  recoveryRegenerateQuestion:
    'Your current recovery codes stop working, and your other sessions end. Get ten new codes?',
  recoveryModalTitle: 'Your recovery codes',
  recoveryOnlyOnce:
    'These codes are shown only once. Save them now (copy or download), somewhere safe and away from this device.',
  recoveryListLabel: 'Recovery codes',
  recoveryCopy: 'Copy codes',
  recoveryDownload: 'Download as text',
  recoveryFileName: 'dbui-recovery-codes.txt',
  recoveryFileHeader: (username: string) => `DBUI recovery codes for ${username}. Each code signs in once.`,
  recoverySaved: 'I have saved them',
  confirm: 'Confirm',
} as const;

/** The human check (the ALTCHA widget) of the sign-in, sign-up and forgot-password forms: its group's name. */
export const humanCheckMessages = {
  label: 'Human check',
} as const;

/** The login page (spec 000 §2, §4): its headings, labels and buttons, and what each second step asks for. */
export const loginMessages = {
  title: 'Login',
  intro: 'Sign in with your username and password, then a one-time code.',
  formName: 'Login',
  username: 'Username',
  password: 'Password',
  forgotPassword: 'Forgot password?',
  signup: 'Signup',
  login: 'Login',
  or: 'or',
  passkey: 'Sign in with a passkey',
  social: (provider: string) => `Continue with ${provider}`,
  /** The generic OpenID Connect provider's name when the server does not say it (its OIDC_LABEL's default). */
  socialNames: { google: 'Google', microsoft: 'Microsoft', facebook: 'Facebook', oidc: 'Single sign-on' },
  chooseTitle: 'Confirm it is you',
  chooseIntro: 'Your password is right. One more step before you are signed in.',
  continue: 'Continue',
  codeTitle: 'Enter your code',
  codeIntro: {
    Email: 'We emailed a 6-digit code to the address of your account. Enter it below.',
    Phone: 'We sent a 6-digit code to your phone by text message. Enter it below.',
    Totp: 'Open your authenticator app and enter the 6-digit code it shows for DBUI.',
    Passkey: 'Use the passkey on this device or your security key to finish signing in.',
    Recovery: 'Enter one of the recovery codes you saved when you set up your account.',
  },
  usePasskey: 'Use my passkey',
  useRecoveryCode: 'Use a recovery code',
  useAnotherMethod: 'Use another method',
  backToLogin: 'Back to Login',
  preSignInInvalid: 'This sign-in link is not valid or has expired. Please sign in again.',
  secondStepLinkIntro:
    'Sign in with your username and password: this link stands in for your second step, once. Then set up a new one on your account page.',
  passkeyCancelled: 'The passkey was not used: the request was cancelled or timed out. Please try again.',
  passkeyUnsupported: 'This browser cannot use passkeys. Sign in with your username and password.',
} as const;
