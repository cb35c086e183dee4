// The browser-storage keys of SPEC.md §3. Other screens and other tabs read these exact names.
export const StorageKey = {
  token: "userToken",
  accountId: "accountId",
  accountId2: "accountId2",
  email: "userEmail",
  currentProperty: "currentProperty",
} as const;
