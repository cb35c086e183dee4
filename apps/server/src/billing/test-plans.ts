// Test support: a plans file with small limits (100 events on the default plan), so that tests
// reach every step of the quota ladder with a few hundred stored events.
import type { PlansFile } from "@lookout/schema";

export const TEST_PLANS: PlansFile = {
  default_plan: "free",
  plans: [
    {
      id: "free",
      name: "Free",
      limits: { events: 100, properties: 2, members: 2 },
      features: [],
      prices: { currency: "usd", month: 0, year: 0 },
      hidden: true,
    },
    {
      id: "pro",
      name: "Pro",
      limits: { events: 1000, properties: 5, members: 5 },
      features: ["goals"],
      prices: { currency: "usd", month: 1900, year: 19000 },
      hidden: false,
    },
    {
      id: "max",
      name: "Max",
      limits: { events: 100_000, properties: null, members: null },
      features: ["goals"],
      prices: { currency: "usd", month: 9900, year: null },
      hidden: false,
    },
  ],
};
