// Shown where a screen needs a current property and none is chosen: one card per property with its
// name and URL, and the way to add one (Settings › Properties; on a first sign-in with no
// property, the main action). The loading failure itself is only logged (SPEC.md §8); here it
// reads as no list.
import { cilGlobeAlt, cilPlus } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CButton, CSpinner } from "@coreui/react";
import { Link } from "react-router-dom";
import { useAccountRole } from "../features/me/queries";
import { useProperties } from "../state/current-property";

/** Settings › Properties with its "Add property" form open. */
export const ADD_PROPERTY_HREF = "/settings?section=properties&add=1";

export function PropertyPicker() {
  const { properties, status, select, reload } = useProperties();
  const { role, can } = useAccountRole();
  const admin = can("admin");

  if (status === "loading") {
    return (
      <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
        <CSpinner size="sm" aria-hidden="true" /> Loading your properties…
      </div>
    );
  }

  return (
    <section aria-labelledby="property-picker-title">
      <h2 id="property-picker-title" className="h4">
        Choose a property
      </h2>
      {properties.length === 0 ? (
        <div className="text-body-secondary">
          <p>
            {admin
              ? "There are no properties to show yet. Add your website to get its tracking code and start counting visits."
              : role === undefined
                ? "There are no properties to show yet."
                : "There are no properties to show. An admin of this account can add one."}
          </p>
          <div className="d-flex flex-wrap gap-2">
            {admin && (
              <Link to={ADD_PROPERTY_HREF} className="btn btn-primary">
                <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
                Add property
              </Link>
            )}
            <CButton color="secondary" variant="outline" onClick={reload}>
              Check again
            </CButton>
          </div>
        </div>
      ) : (
        <>
          <p className="text-body-secondary">
            Pick the website whose statistics you want to see
            {admin ? (
              <>
                , or <Link to={ADD_PROPERTY_HREF}>add a property</Link>
              </>
            ) : null}
            .
          </p>
          <ul className="row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3 list-unstyled">
            {properties.map((p) => (
              <li key={p.unique_id} className="col">
                <button type="button" className="card property-card h-100 w-100 text-start" onClick={() => select(p.unique_id)}>
                  <span className="card-body d-flex gap-3 align-items-start w-100">
                    <CIcon icon={cilGlobeAlt} size="xl" className="text-primary flex-shrink-0" aria-hidden="true" />
                    <span className="d-block min-w-0">
                      <span className="d-block fw-semibold text-truncate property-card-name">{p.name}</span>
                      <span className="d-block small text-body-secondary text-truncate property-card-url">
                        {p.website_url || "No website address set"}
                      </span>
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
