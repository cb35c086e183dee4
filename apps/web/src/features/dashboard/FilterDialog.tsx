// The filter dialog (Plausible's "Filter"): a dimension or custom property, an operator (is, is
// not, contains, does not contain, matches) and one or several values, suggested from the data as
// the person types. The value box is a WAI-ARIA combobox over an inline listbox: arrows move
// through the suggestions, Enter adds the active one (or the typed text), clicks add too. Apply
// also takes text still in the box. Problems show in place with the server's own limits
// (filter-draft.ts), a bad pattern as soon as it is typed; nothing is sent that would be a 400.
import { cilX } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import {
  CButton,
  CForm,
  CFormFeedback,
  CFormInput,
  CFormLabel,
  CFormSelect,
  CFormText,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from "@coreui/react";
import { FILTER_OPS, type Filter, type FilterOp } from "@lookout/schema";
import { type FormEvent, type KeyboardEvent, useId, useMemo, useState } from "react";
import type { StatsQuery } from "./api";
import { checkDraft, type DimensionChoice, draftDimension, draftOf, emptyDraft, type FilterDraft } from "./filter-draft";
import { useFilterSuggestions } from "./filter-suggestions";
import { FILTER_DIMENSION_GROUPS, OP_WORDS } from "./filters";
import { dimensionLabel, valueText } from "./labels";
import { ValueLabel } from "./PanelParts";

const VALUE_HELP: Record<FilterOp, string> = {
  is: "Pick values from the suggestions or type one and press Enter. Any of them matches.",
  is_not: "Pick values from the suggestions or type one and press Enter. Rows matching none of them are kept.",
  contains: "Text anywhere in the value, ignoring case. Any of them matches.",
  not_contains: "Text anywhere in the value, ignoring case. Rows containing none of them are kept.",
  matches: "A regular expression (RE2: no look-around or back-references). Any of them matches.",
};

export default function FilterDialog(props: {
  /** The filter being edited, or null for a new one. */
  initial: Filter | null;
  /** The dashboard's other filters, which the suggestions respect. */
  others: readonly Filter[];
  query: StatsQuery;
  onApply: (filter: Filter) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<FilterDraft>(() => (props.initial ? draftOf(props.initial) : emptyDraft()));
  const [tried, setTried] = useState(false);
  const [active, setActive] = useState(-1);
  const check = checkDraft(draft);
  const dimension = draftDimension(draft);
  const suggestions = useFilterSuggestions(props.query, props.others, dimension, draft.typed);
  const options = useMemo(() => suggestions.values.filter((v) => !draft.values.includes(v)), [suggestions.values, draft.values]);

  const update = (patch: Partial<FilterDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setActive(-1);
  };
  const addValue = (value: string) => {
    setDraft((d) => (d.values.includes(value) ? { ...d, typed: "" } : { ...d, values: [...d.values, value], typed: "" }));
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (options.length === 0) return;
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      // -1 (the typed text) and the options, in a cycle.
      setActive((a) => ((a + 1 + step + options.length + 1) % (options.length + 1)) - 1);
      return;
    }
    if (e.key !== "Enter") return;
    const chosen = active >= 0 ? options[active] : undefined;
    if (chosen !== undefined) {
      e.preventDefault();
      addValue(chosen);
    } else if (draft.typed.trim() !== "") {
      // Enter adds the typed text as a value; with the box empty it applies the filter.
      e.preventDefault();
      if (!check.typedError) addValue(draft.typed.trim());
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (check.filter) props.onApply(check.filter);
  };

  const title = props.initial ? "Edit filter" : "Add filter";
  const listId = `${id}-suggestions`;
  const listShown = dimension !== null && options.length > 0;
  const activeId = active >= 0 && active < options.length ? `${id}-option-${active}` : undefined;
  const helpId = `${id}-value-help`;
  const typedErrorId = `${id}-typed-error`;
  const valuesErrorId = `${id}-values-error`;
  const shownValuesError = tried ? check.valuesError : null;
  const describedBy = [check.typedError ? typedErrorId : helpId, shownValuesError ? valuesErrorId : null]
    .filter(Boolean)
    .join(" ");

  return (
    <CModal visible onClose={props.onClose} aria-labelledby={`${id}-title`} alignment="center" className="filter-dialog">
      <CForm onSubmit={submit} noValidate>
        <CModalHeader>
          <CModalTitle id={`${id}-title`}>{title}</CModalTitle>
        </CModalHeader>
        <CModalBody>
          <div className="row g-2 mb-3">
            <div className="col-sm-7">
              <CFormLabel htmlFor={`${id}-dimension`}>Filter by</CFormLabel>
              <CFormSelect
                id={`${id}-dimension`}
                value={draft.choice}
                onChange={(e) => update({ choice: e.target.value as DimensionChoice, values: [], typed: "" })}
              >
                {FILTER_DIMENSION_GROUPS.map((g) => (
                  <optgroup key={g.label} label={g.label}>
                    {g.dimensions.map((d) => (
                      <option key={d} value={d}>
                        {dimensionLabel(d)}
                      </option>
                    ))}
                  </optgroup>
                ))}
                <optgroup label="Custom properties">
                  <option value="prop">Custom property…</option>
                </optgroup>
              </CFormSelect>
            </div>
            <div className="col-sm-5">
              <CFormLabel htmlFor={`${id}-op`}>Operator</CFormLabel>
              <CFormSelect id={`${id}-op`} value={draft.op} onChange={(e) => update({ op: e.target.value as FilterOp })}>
                {FILTER_OPS.map((op) => (
                  <option key={op} value={op}>
                    {OP_WORDS[op]}
                  </option>
                ))}
              </CFormSelect>
            </div>
          </div>

          {draft.choice === "prop" && (
            <div className="mb-3">
              <CFormLabel htmlFor={`${id}-prop`}>Property name</CFormLabel>
              <CFormInput
                id={`${id}-prop`}
                value={draft.propKey}
                autoComplete="off"
                maxLength={400}
                placeholder="e.g. plan"
                invalid={tried && check.keyError !== null}
                aria-invalid={tried && check.keyError !== null}
                aria-describedby={tried && check.keyError ? `${id}-prop-error` : undefined}
                onChange={(e) => update({ propKey: e.target.value, values: [] })}
              />
              {tried && check.keyError && (
                <CFormFeedback id={`${id}-prop-error`} invalid>
                  {check.keyError}
                </CFormFeedback>
              )}
            </div>
          )}

          {draft.values.length > 0 && (
            <ul className="filter-values list-unstyled d-flex flex-wrap gap-2 mb-2" aria-label="Chosen values">
              {draft.values.map((v) => {
                const label = dimension ? valueText(dimension, v) : v;
                return (
                  <li key={v} className="filter-chip">
                    <span className="filter-chip-text text-truncate" title={label}>
                      {label}
                    </span>
                    <button
                      type="button"
                      className="filter-chip-remove"
                      aria-label={`Remove value ${label}`}
                      onClick={() => update({ values: draft.values.filter((x) => x !== v) })}
                    >
                      <CIcon icon={cilX} size="sm" aria-hidden="true" />
                    </button>
                  </li>
                );
              })}
            </ul>
          )}

          <CFormLabel htmlFor={`${id}-value`}>{draft.op === "matches" ? "Pattern" : "Value"}</CFormLabel>
          <CFormInput
            id={`${id}-value`}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={listShown}
            aria-controls={listShown ? listId : undefined}
            aria-activedescendant={activeId}
            aria-describedby={describedBy}
            autoComplete="off"
            maxLength={2000}
            value={draft.typed}
            invalid={check.typedError !== null || shownValuesError !== null}
            aria-invalid={check.typedError !== null || shownValuesError !== null}
            placeholder={draft.op === "matches" ? "e.g. ^/blog/" : "Search or type a value"}
            onChange={(e) => update({ typed: e.target.value })}
            onKeyDown={onKeyDown}
          />
          {check.typedError ? (
            <CFormFeedback id={typedErrorId} invalid role="alert">
              {check.typedError}
            </CFormFeedback>
          ) : (
            <CFormText id={helpId}>{VALUE_HELP[draft.op]}</CFormText>
          )}
          {shownValuesError && (
            <CFormFeedback id={valuesErrorId} invalid className="d-block" role="alert">
              {shownValuesError}
            </CFormFeedback>
          )}

          <div className="filter-suggestions mt-2">
            <div className="small text-body-secondary d-flex align-items-center gap-2" aria-live="polite">
              {suggestions.loading || suggestions.searching ? (
                <>
                  <CSpinner size="sm" aria-hidden="true" /> Loading suggestions…
                </>
              ) : suggestions.error ? (
                "Suggestions could not be loaded; type a value instead."
              ) : dimension && options.length === 0 ? (
                "No other values in this range."
              ) : dimension ? (
                `Suggestions: ${options.length}`
              ) : null}
            </div>
            {listShown && (
              <div id={listId} role="listbox" aria-label="Suggested values" className="filter-suggestion-list">
                {options.map((v, i) => (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (arrows, Enter).
                  <div
                    key={v}
                    id={`${id}-option-${i}`}
                    role="option"
                    aria-selected={i === active}
                    // Focus stays in the combobox (aria-activedescendant); -1 keeps the option out of the tab order.
                    tabIndex={-1}
                    className={`filter-suggestion d-flex align-items-center gap-2${i === active ? " active" : ""}`}
                    // Keeps focus in the input, so typing goes on after a click.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => addValue(v)}
                  >
                    <ValueLabel dimension={dimension} value={v} emptyLabel="(none)" />
                  </div>
                ))}
              </div>
            )}
          </div>
        </CModalBody>
        <CModalFooter>
          <CButton color="secondary" variant="outline" onClick={props.onClose}>
            Cancel
          </CButton>
          <CButton color="primary" type="submit">
            Apply filter
          </CButton>
        </CModalFooter>
      </CForm>
    </CModal>
  );
}
