// A paths answer drawn as a Sankey (ECharts, lazy with this module): a column per step, a node per
// (step, item), links weighted by distinct visitors. Clicking a node, or its button in the table
// below (the chart's text alternative, usable by keyboard), lists the visitors at that node in
// ActorsModal. Items are tracked strings: ECharts draws them on canvas as text, tooltips escape
// them, the table renders them as React text.
import { CButton, CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from "@coreui/react";
import type { PathsAnswer, PathsSpec } from "@lookout/schema";
import { SankeyChart } from "echarts/charts";
import type { EChartsType } from "echarts/core";
import { useCallback, useMemo, useState } from "react";
import { useChartColors } from "../../../../components/charts/chart-colors";
import { EChart } from "../../../../components/charts/EChart";
import { echarts, escapeHtml } from "../../../../components/charts/echarts-core";
import { ActorsModal } from "../../ActorsModal";

echarts.use([SankeyChart]);

const PALETTE = ["#5856d6", "#2eb85c", "#f9b115", "#e55353", "#39f", "#6f42c1", "#20c997", "#fd7e14", "#d63384", "#9da5b1"];

/** A Sankey node's name must be unique: the step and the item, apart by a character no item has. */
const nodeId = (step: number, node: string) => `${step}\u0001${node}`;
const parseId = (id: string) => {
  const at = id.indexOf("\u0001");
  return { step: Number(id.slice(0, at)), node: id.slice(at + 1) };
};

export function PathsChart({ propertyId, spec, answer }: { propertyId: string; spec: PathsSpec; answer: PathsAnswer }) {
  const c = useChartColors();
  const { edges, nodes, paths } = answer.results;
  const [open, setOpen] = useState<{ step: number; node: string } | null>(null);
  const option = useMemo(
    () => ({
      tooltip: {
        trigger: "item",
        backgroundColor: c.tooltipBg,
        borderColor: c.border,
        textStyle: { color: c.text },
        formatter: (p: { dataType?: string; data: { name?: string; source?: string; target?: string; value?: number } }) => {
          if (p.dataType === "edge") {
            const s = parseId(p.data.source ?? "");
            const t = parseId(p.data.target ?? "");
            return `${escapeHtml(s.node)} → ${escapeHtml(t.node)} (step ${s.step}): ${p.data.value ?? 0} visitors`;
          }
          const n = parseId(p.data.name ?? "");
          return `Step ${n.step}: ${escapeHtml(n.node)}, ${p.data.value ?? 0} visitors`;
        },
      },
      series: [
        {
          type: "sankey",
          left: 8,
          right: 120,
          top: 8,
          bottom: 8,
          nodeAlign: "left",
          nodeGap: 4,
          emphasis: { focus: "adjacency" },
          lineStyle: { color: "gradient", opacity: 0.35 },
          label: { color: c.text, fontSize: 11, formatter: (p: { name: string }) => parseId(p.name).node },
          data: nodes.map((n, i) => ({
            name: nodeId(n.step, n.node),
            value: n.visitors,
            depth: n.step - 1,
            itemStyle: { color: PALETTE[i % PALETTE.length] },
          })),
          links: edges.map((e) => ({
            source: nodeId(e.step, e.source),
            target: nodeId(e.step + 1, e.target),
            value: e.visitors,
          })),
        },
      ],
    }),
    [edges, nodes, c],
  );
  const onInit = useCallback((chart: EChartsType) => {
    chart.on("click", (p) => {
      if (p.dataType === "node" && typeof p.name === "string") setOpen(parseId(p.name));
    });
  }, []);

  if (edges.length === 0) {
    return (
      <p className="text-body-secondary" data-testid="paths-empty">
        {paths === 0 ? "No visit matches in this range." : "No visit goes further than one step here."}
      </p>
    );
  }
  const steps = Math.max(...nodes.map((n) => n.step));
  // Tall enough for the busiest step's nodes to keep their labels apart, within reason.
  const perStep = new Map<number, number>();
  for (const n of nodes) perStep.set(n.step, (perStep.get(n.step) ?? 0) + 1);
  const height = Math.min(900, Math.max(320, 16 * Math.max(...perStep.values())));
  const label = `Paths Sankey over ${steps} steps of ${paths.toLocaleString()} visits; the table below lists every node and link.`;
  return (
    <>
      <EChart option={option} label={label} onInit={onInit} style={{ height }} data-testid="insight-chart" />
      <div className="table-responsive mt-3">
        <CTable small hover className="mb-0" data-testid="paths-table">
          <caption className="visually-hidden">
            The paths' links: from a node at a step to the next, with distinct visitors
          </caption>
          <CTableHead>
            <CTableRow>
              <CTableHeaderCell scope="col">Step</CTableHeaderCell>
              <CTableHeaderCell scope="col">From</CTableHeaderCell>
              <CTableHeaderCell scope="col">To</CTableHeaderCell>
              <CTableHeaderCell scope="col" className="text-end">
                Visitors
              </CTableHeaderCell>
            </CTableRow>
          </CTableHead>
          <CTableBody>
            {edges.map((e) => (
              <CTableRow key={`${e.step}-${e.source}-${e.target}`}>
                <CTableDataCell>{e.step}</CTableDataCell>
                <CTableDataCell className="text-break">
                  <NodeButton label={e.source} onClick={() => setOpen({ step: e.step, node: e.source })} />
                </CTableDataCell>
                <CTableDataCell className="text-break">
                  <NodeButton label={e.target} onClick={() => setOpen({ step: e.step + 1, node: e.target })} />
                </CTableDataCell>
                <CTableDataCell className="text-end">{e.visitors.toLocaleString()}</CTableDataCell>
              </CTableRow>
            ))}
          </CTableBody>
        </CTable>
      </div>
      {open && (
        <ActorsModal
          propertyId={propertyId}
          spec={spec}
          at={open}
          title={`Visitors at step ${open.step}: ${open.node}`}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}

function NodeButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <CButton color="link" size="sm" className="p-0 text-start text-break" onClick={onClick}>
      {label}
    </CButton>
  );
}
