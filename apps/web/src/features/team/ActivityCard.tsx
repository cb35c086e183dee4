// /team › Recent activity (admins and owners): the account's audit log, newest first (who
// invited, changed a role, removed a member, changed a setting, deleted a property), twenty or so
// at a time with "Load more" following the server's cursor. Descriptions are tracked text from the
// server: rendered as text only.
import { CAlert, CButton, CSpinner } from "@coreui/react";
import type { ActivityItem } from "@lookout/schema";
import { messageOf } from "../../lib/http";
import { formatWhen } from "../me/when";
import { useActivity } from "./queries";

function Entry({ item }: { item: ActivityItem }) {
  const who = item.actor ? item.actor.name.trim() || item.actor.email : "Lookout";
  return (
    <li className="team-activity-entry py-2">
      <div className="text-break">
        <span className="fw-semibold">{who}</span> {item.description}
      </div>
      <time className="small text-body-secondary" dateTime={item.created_at}>
        {formatWhen(item.created_at)}
      </time>
    </li>
  );
}

export function ActivityList({ accountId }: { accountId: string }) {
  const activity = useActivity(accountId, true);
  const items = activity.data?.pages.flatMap((p) => p.results) ?? [];
  return (
    <section aria-labelledby="team-activity-title">
      <h2 id="team-activity-title" className="h5 mb-3">
        Recent activity
      </h2>
      {activity.error && (
        <CAlert color="danger" role="alert">
          {messageOf(activity.error, "The activity could not be loaded.")}
        </CAlert>
      )}
      {activity.isPending ? (
        <div className="text-center py-3" role="status">
          <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading the activity</span>
        </div>
      ) : items.length === 0 ? (
        !activity.error && <p className="text-body-secondary mb-0">Nothing has happened in this account yet.</p>
      ) : (
        <ul className="list-unstyled mb-0 team-activity" data-testid="team-activity">
          {items.map((item) => (
            <Entry key={item.id} item={item} />
          ))}
        </ul>
      )}
      {activity.hasNextPage && (
        <CButton
          color="secondary"
          variant="outline"
          size="sm"
          className="mt-3"
          disabled={activity.isFetchingNextPage}
          onClick={() => void activity.fetchNextPage()}
        >
          {activity.isFetchingNextPage && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
          Load more
        </CButton>
      )}
    </section>
  );
}
