// Where the visitors screens live: the list is the Visitors part of Product Analytics, a visitor's
// page is /customers/{clientId} (SPEC.md §2) with the client id encoded, never trusted as a path.
export const VISITORS_LIST_PATH = "/product-analytics?tab=visitors";

export const visitorPath = (clientId: string) => `/customers/${encodeURIComponent(clientId)}`;
