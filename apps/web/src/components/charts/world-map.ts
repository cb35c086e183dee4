// The world map's shapes, offline: Natural Earth's 1:110m countries from the world-atlas package,
// turned from TopoJSON into GeoJSON and registered with ECharts once, on first use (a separate
// chunk, fetched only when a map is shown). Regions are named by ISO alpha-2 code, as the data is.
import type { Feature, FeatureCollection, Geometry, Position } from "geojson";
import type { GeometryCollection, Topology } from "topojson-specification";
import { alpha2FromNumeric } from "../../lib/countries";
import { echarts } from "./echarts-core";

export const WORLD_MAP = "lookout-world";
const ANTARCTICA = "010";

let loading: Promise<void> | null = null;
const centres = new Map<string, [number, number]>();

/** Where to put a country's marker: the middle of its largest part (after loadWorldMap). */
export function countryCentre(code: string): [number, number] | undefined {
  return centres.get(code);
}

/** The middle of the bounding box of a geometry's largest polygon (by box area). */
export function centreOf(g: Geometry): [number, number] | undefined {
  const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
  let best: { area: number; centre: [number, number] } | undefined;
  for (const [outer] of polygons) {
    if (!outer?.length) continue;
    const lons = outer.map((p) => p[0]!);
    const lats = outer.map((p) => p[1]!);
    const [w, e, s, n] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
    const area = (e - w) * (n - s);
    if (!best || area > best.area) best = { area, centre: [(w + e) / 2, (s + n) / 2] };
  }
  return best?.centre;
}

/**
 * Rings that cross the antimeridian (Russia's and Fiji's easternmost parts) jump from +180 to
 * -180 and would be drawn as stripes across the whole map. Their few points on the far side are
 * pinned to the meridian instead, which at this scale is invisible.
 */
export function pinAntimeridian(ring: Position[]): Position[] {
  const crosses = ring.some((p, i) => i > 0 && Math.abs(p[0]! - ring[i - 1]![0]!) > 180);
  if (!crosses) return ring;
  const east = ring.filter((p) => p[0]! > 0).length >= ring.length / 2;
  return ring.map(([lon, lat, ...rest]) =>
    east && lon! < 0 ? [180, lat!, ...rest] : !east && lon! > 0 ? [-180, lat!, ...rest] : [lon!, lat!, ...rest],
  );
}

function pinGeometry(g: Geometry): Geometry {
  if (g.type === "Polygon") return { ...g, coordinates: g.coordinates.map(pinAntimeridian) };
  if (g.type === "MultiPolygon") return { ...g, coordinates: g.coordinates.map((poly) => poly.map(pinAntimeridian)) };
  return g;
}

export function loadWorldMap(): Promise<void> {
  loading ??= (async () => {
    const [{ feature }, atlas] = await Promise.all([import("topojson-client"), import("world-atlas/countries-110m.json")]);
    const topology = atlas.default as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
    const all = feature(topology, topology.objects.countries) as FeatureCollection<Geometry, { name: string }>;
    const features: Feature<Geometry, { name: string }>[] = all.features
      .filter((f) => f.id !== ANTARCTICA)
      // A few disputed areas have no ISO code; they still draw, under a name no data matches.
      .map((f, i) => ({
        ...f,
        geometry: pinGeometry(f.geometry),
        properties: { name: alpha2FromNumeric(f.id) ?? `none-${i}` },
      }));
    for (const f of features) {
      const centre = centreOf(f.geometry);
      if (centre) centres.set(f.properties.name, centre);
    }
    echarts.registerMap(WORLD_MAP, { type: "FeatureCollection", features } as unknown as Parameters<
      typeof echarts.registerMap
    >[1]);
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
