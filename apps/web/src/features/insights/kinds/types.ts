// What each insight kind gives the insight page (InsightPage): its name and help, the spec a new
// insight of the kind starts from, the editor of its own options (the page owns name, date range
// and global filters), and the view of its answer. Registered in index.ts, one entry per kind.
import type { CsvCell, InsightAnswerOf, InsightKind, InsightSpec, InsightSpecInput } from "@lookout/schema";
import type { ComponentType } from "react";

export type SpecOf<K extends InsightKind> = Extract<InsightSpec, { kind: K }>;
export type SpecInputOf<K extends InsightKind> = Extract<InsightSpecInput, { kind: K }>;

export interface KindEditorProps<K extends InsightKind> {
  propertyId: string;
  spec: SpecInputOf<K>;
  setSpec: (next: SpecInputOf<K>) => void;
}

export interface KindResultProps<K extends InsightKind> {
  propertyId: string;
  /** The validated spec the answer is for. */
  spec: SpecOf<K>;
  answer: InsightAnswerOf<K>;
}

export interface KindView<K extends InsightKind> {
  /** "Trends", shown in the list and the kind chooser. */
  label: string;
  /** One line in the kind chooser: what this kind answers. */
  description: string;
  /** The name a new insight of this kind gets when none is typed ("Untitled trend"). */
  untitled: string;
  defaultSpec: SpecInputOf<K>;
  Editor: ComponentType<KindEditorProps<K>>;
  Result: ComponentType<KindResultProps<K>>;
  /** The kind's icon (a @coreui/icons icon) in the list and the kind chooser; a chart icon if none. */
  icon?: string[];
  /**
   * The answer as a table for the CSV export: the header row first, then one row per line of the
   * answer (cells escaped by the page with the shared rule). Without it the page offers no CSV.
   */
  toCsv?: (answer: InsightAnswerOf<K>) => CsvCell[][];
}
