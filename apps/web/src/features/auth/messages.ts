// The texts of SPEC.md §8 for the public screens, word for word, plus the reset screen's own.
export const LOGIN_FAILED = "Login failed. Please check your credentials.";
export const RECOVERY_FAILED = "Password recovery failed. Please check your email address.";
export const RECOVERY_SENT = "Password recovery successful! Check your email for further instructions.";
export const RESET_FAILED = "The password could not be changed. Please request a new reset link.";
export const RESET_DONE = "Your password has been changed. You can now log in.";
export const RESET_NO_TOKEN = "This reset link is incomplete. Please request a new one.";
export const RESET_MISMATCH = "The two passwords do not match.";
