// A property's goals (DESIGN.md §5): list, create and delete. Answers are parsed with the shared
// schemas, so a surprise reads as an error where it is shown, never as a crash.
import { type CreateGoalBody, type Goal, GoalListAnswerSchema, GoalSchema } from "@lookout/schema";
import { request } from "../../lib/http";

const goalsUrl = (propertyId: string) => `/api/v1/properties/${encodeURIComponent(propertyId)}/goals`;

export async function listGoals(propertyId: string, signal?: AbortSignal): Promise<Goal[]> {
  return GoalListAnswerSchema.parse(await request("GET", goalsUrl(propertyId), { signal })).goals;
}

export async function createGoal(propertyId: string, body: CreateGoalBody): Promise<Goal> {
  return GoalSchema.parse(await request("POST", goalsUrl(propertyId), { json: body }));
}

export async function deleteGoal(propertyId: string, id: string): Promise<void> {
  await request("DELETE", `${goalsUrl(propertyId)}/${encodeURIComponent(id)}`);
}
