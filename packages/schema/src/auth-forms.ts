// The fields of the public screens' forms (SPEC.md §2, §5), for react-hook-form's zod resolver in
// the web app. SPEC.md §5 allows no validation beyond the inputs' types (the browser checks the
// e-mail input), so these only name and type the fields: the server's answer is the judge.
import { z } from "zod";

export const LoginFormSchema = z.object({
  email: z.string(),
  password: z.string(),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;
