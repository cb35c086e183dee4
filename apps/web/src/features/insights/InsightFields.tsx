// The insight's own fields (InsightPage.tsx): name, description and tags for writers, and for
// viewers the saved description and tags as text. Also how typed tags read (parseTags).
import { CFormInput, CFormLabel, CFormTextarea } from "@coreui/react";
import { INSIGHT_LIMITS } from "@lookout/schema";

/** Tags as typed: comma-separated, trimmed, empty ones and repeats dropped, at most the limit. */
export const parseTags = (s: string) =>
  [
    ...new Set(
      s
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ]
    .slice(0, INSIGHT_LIMITS.maxTags)
    .map((t) => t.slice(0, INSIGHT_LIMITS.maxTagLength));

export interface InsightFieldsProps {
  canWrite: boolean;
  saved: { description: string; tags: string[] } | null;
  /** The name a new insight of this kind gets when none is typed. */
  untitled: string;
  name: string;
  setName(v: string): void;
  description: string;
  setDescription(v: string): void;
  /** As typed: comma-separated. */
  tags: string;
  setTags(v: string): void;
}

export function InsightFields({
  canWrite,
  saved,
  untitled,
  name,
  setName,
  description,
  setDescription,
  tags,
  setTags,
}: InsightFieldsProps) {
  return canWrite ? (
    <>
      <div className="mb-3">
        <CFormLabel htmlFor="insight-name">Name</CFormLabel>
        <CFormInput
          id="insight-name"
          value={name}
          maxLength={INSIGHT_LIMITS.maxNameLength}
          placeholder={untitled}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="mb-3">
        <CFormLabel htmlFor="insight-description">Description</CFormLabel>
        <CFormTextarea
          id="insight-description"
          rows={2}
          value={description}
          maxLength={INSIGHT_LIMITS.maxDescriptionLength}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <div className="mb-3">
        <CFormLabel htmlFor="insight-tags">Tags</CFormLabel>
        <CFormInput
          id="insight-tags"
          value={tags}
          placeholder="growth, weekly"
          aria-describedby="insight-tags-help"
          onChange={(e) => setTags(e.target.value)}
        />
        <div id="insight-tags-help" className="form-text">
          Separated by commas.
        </div>
      </div>
    </>
  ) : (
    saved && (
      <div className="mb-3 insight-readonly">
        {saved.description && <p className="mb-1">{saved.description}</p>}
        <p className="small text-body-secondary mb-0">
          {saved.tags.length > 0 ? `Tags: ${saved.tags.join(", ")}. ` : ""}
          You can change the options to explore; saving needs an editor.
        </p>
      </div>
    )
  );
}
