// Loads one piece of statistics whenever its key changes. The previous answer stays on show
// (marked busy) while the next one loads, so panels do not jump; an answer that arrives after a
// newer request began is dropped. A 401 means the session is over: sign out and go to /login.
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { HttpError } from "../../lib/http";
import { useSession } from "../auth/session";

export interface Loaded<T> {
  /** The latest answer (possibly for an earlier key while `busy`). */
  data: T | undefined;
  error: unknown;
  busy: boolean;
  reload: () => void;
}

export function useStats<T>(key: string | null, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; busy: boolean }>({
    data: undefined,
    error: null,
    busy: key !== null,
  });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const { signOut } = useSession();
  const navigate = useNavigate();

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says when to load; `attempt` reloads.
  useEffect(() => {
    if (key === null) return;
    let live = true;
    setState((s) => ({ ...s, busy: true }));
    loadRef.current().then(
      (data) => live && setState({ data, error: null, busy: false }),
      (error: unknown) => {
        if (!live) return;
        if (error instanceof HttpError && error.status === 401) {
          signOut();
          navigate("/login", { replace: true });
          return;
        }
        setState({ data: undefined, error, busy: false });
      },
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
