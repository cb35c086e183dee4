// The one QueryClient: a 401 from any query or mutation reaches the one handler; nothing else does.
import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { HttpError } from "./http";
import { createQueryClient } from "./query-client";

describe("createQueryClient", () => {
  it("calls onUnauthorized for a 401 of a query or a mutation, and only then", async () => {
    const onUnauthorized = vi.fn();
    const client = createQueryClient({ onUnauthorized });
    const fail = (status: number) => () => Promise.reject(new HttpError(status, null, null));

    await expect(client.fetchQuery({ queryKey: ["a"], queryFn: fail(401) })).rejects.toBeInstanceOf(HttpError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(client.fetchQuery({ queryKey: ["b"], queryFn: fail(500) })).rejects.toBeInstanceOf(HttpError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    const mutation = client.getMutationCache().build(client, { mutationFn: fail(401) });
    await expect(mutation.execute(undefined)).rejects.toBeInstanceOf(HttpError);
    expect(onUnauthorized).toHaveBeenCalledTimes(2);
  });

  it("does not retry a failed query: the panel shows its error and Retry at once", async () => {
    const queryFn = vi.fn(() => Promise.reject(new HttpError(503, null, null)));
    const client = createQueryClient({ onUnauthorized: () => {} });
    // An observer, as useQuery makes one, runs with the client's defaults.
    const observer = new QueryObserver(client, { queryKey: ["c"], queryFn });
    const failed = new Promise<void>((resolve) => {
      const stop = observer.subscribe((r) => {
        if (r.status === "error") {
          stop();
          resolve();
        }
      });
    });
    await failed;
    expect(queryFn).toHaveBeenCalledTimes(1);
  });
});
