/** The specification's user-facing texts, word for word, in one place (spec README: "keep them as named constants"). */

/** Shell, routes and error pages. */
export const shellMessages = {
  starting: 'Starting Application...',
  notFound: 'This page was not found.',
  unauthorized: 'You are not authorized to see that page.',
  underDevelopment: 'This site is under development and some features may not be available.',
  productsComingSoon: 'PRODUCTS COMING SOON',
} as const;

/** Transport fallbacks: the original swapped GET and POST; ours uses the correct one (spec README). */
export const transportMessages = {
  GET: 'GET request failed.',
  POST: 'POST request failed.',
  PUT: 'PUT request failed.',
  DELETE: 'DELETE request failed.',
} as const;

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

/** Administration of users and roles. */
export const adminMessages = {
  rolesFailed: 'Failed to get roles.',
  usersFailed: 'Failed to get users.',
  cannotSwitchPages: 'Cannot switch pages with pending changes.',
  cannotHavePendingChanges: 'Cannot have pending changes.',
  duplicateLinks: 'Some links are duplicates.',
  somethingWentWrongTryAgain: 'Something went wrong... please try again.',
} as const;

/** Public site: contact and chat. */
export const siteMessages = {
  contactFailed: 'Failed to Contact Us... Please try again.',
  subjectMax: 'Subject cannot be more than 50 characters.',
  messageMax: 'Message cannot be more than 1000 characters.',
  chatTitle: 'Chat with Titan',
  chatStartFailed: 'Failed to start the chat.',
  chatAddFailed: 'Failed to add message to the chat.',
} as const;
