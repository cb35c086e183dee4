import { requireRedis } from "../test-services.js";
import { liveBusConformance } from "./conformance.js";
import { memoryLiveBus } from "./live-bus.js";
import { redisLiveBus } from "./redis-live-bus.js";

liveBusConformance("memory", async () => memoryLiveBus(), false);

const prefix = `lookout-test-${process.pid}-${Date.now()}:`;
liveBusConformance("redis", async () => redisLiveBus(await requireRedis(), prefix), true);
