// Settings › Reports (/reports): the property's weekly and monthly e-mail reports (on/off,
// recipients one per line, send hour, "Send now" to preview, last sent period and next send time
// in the property's timezone) and the export of its stats as a ZIP of CSVs with download progress.
// Below admin everything is shown read-only.

import {
  CAlert,
  CButton,
  CCard,
  CCardBody,
  CForm,
  CFormLabel,
  CFormSelect,
  CFormSwitch,
  CFormText,
  CFormTextarea,
  CSpinner,
} from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  type CurrentProperty,
  MAX_REPORT_RECIPIENTS,
  type ReportFrequency,
  ReportRecipientSchema,
  type ReportSchedule,
  type ReportSchedulesAnswer,
} from "@lookout/schema";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { DateRangePicker } from "../../../components/DateRangePicker";
import { saveFile } from "../../../lib/download";
import { messageOf } from "../../../lib/http";
import { apiPeriod } from "../../../state/date-presets";
import { useDateRange } from "../../../state/date-range";
import { issuesOf } from "../../properties/field-errors";
import { downloadExport } from "../../reports/api";
import { useReports, useSaveReport, useSendReportNow } from "../../reports/queries";
import type { SectionProps } from "../section-props";
import "../../reports/reports.css";

const INFO: Record<ReportFrequency, { title: string; when: (hour: string) => string; covers: string }> = {
  weekly: {
    title: "Weekly report",
    when: (h) => `Every Monday at ${h}`,
    covers: "the previous Monday to Sunday",
  },
  monthly: {
    title: "Monthly report",
    when: (h) => `On the 1st of every month at ${h}`,
    covers: "the previous calendar month",
  },
};

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hour = (h: number) => `${String(h).padStart(2, "0")}:00`;
const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

function when(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat(undefined, {
    timeZone: timezone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(iso));
}

/** The form: recipients as typed, one per line; each line checked with the server's own rule. */
const ScheduleFormSchema = z
  .object({ enabled: z.boolean(), recipients: z.string(), send_hour: z.coerce.number().int().min(0).max(23) })
  .superRefine((v, ctx) => {
    const list = lines(v.recipients);
    const bad = list.map((l, i) => [i, ReportRecipientSchema.safeParse(l).success] as const).filter(([, ok]) => !ok);
    if (bad.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["recipients"],
        message: `Not an e-mail address: ${bad.map(([i]) => `line ${i + 1}`).join(", ")}.`,
      });
    } else if (v.enabled && list.length === 0) {
      ctx.addIssue({ code: "custom", path: ["recipients"], message: "Add at least one recipient, or turn the report off." });
    } else if (new Set(list.map((l) => l.toLowerCase())).size > MAX_REPORT_RECIPIENTS) {
      ctx.addIssue({ code: "custom", path: ["recipients"], message: `At most ${MAX_REPORT_RECIPIENTS} recipients.` });
    }
  });
type ScheduleForm = z.input<typeof ScheduleFormSchema>;

function Status({ schedule, timezone }: { schedule: ReportSchedule | null; timezone: string }) {
  if (!schedule) return <p className="text-body-secondary small mb-0">Off: no report is sent.</p>;
  return (
    <dl className="report-status small mb-0">
      <dt>Last sent</dt>
      <dd data-testid="last-sent">{schedule.last_sent_period ?? "Not sent yet"}</dd>
      <dt>Next</dt>
      <dd data-testid="next-send">
        {when(schedule.next_send_at, timezone)} ({timezone}), covering {schedule.next_period}
      </dd>
    </dl>
  );
}

function ReadOnlySchedule({
  frequency,
  schedule,
  timezone,
}: {
  frequency: ReportFrequency;
  schedule: ReportSchedule | null;
  timezone: string;
}) {
  const info = INFO[frequency];
  return (
    <>
      <p className="small text-body-secondary">
        {schedule ? `${info.when(hour(schedule.send_hour))}, covering ${info.covers}.` : `Covers ${info.covers}.`}
      </p>
      {schedule && (
        <>
          <h4 className="h6 mt-3">Recipients</h4>
          <ul className="list-unstyled report-recipients">
            {schedule.recipients.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </>
      )}
      <Status schedule={schedule} timezone={timezone} />
    </>
  );
}

function ScheduleEditor({
  property,
  frequency,
  schedule,
  timezone,
}: {
  property: CurrentProperty;
  frequency: ReportFrequency;
  schedule: ReportSchedule | null;
  timezone: string;
}) {
  const id = useId();
  const info = INFO[frequency];
  const save = useSaveReport(property.unique_id);
  const sendNow = useSendReportNow(property.unique_id);
  const [message, setMessage] = useState<{ color: "success" | "danger"; text: string } | null>(null);
  const { register, handleSubmit, watch, formState, setError, reset } = useForm<ScheduleForm>({
    resolver: zodResolver(ScheduleFormSchema),
    defaultValues: {
      enabled: schedule !== null,
      recipients: (schedule?.recipients ?? []).join("\n"),
      send_hour: schedule?.send_hour ?? 9,
    },
  });
  const enabled = watch("enabled");
  const sendHour = Number(watch("send_hour"));

  const onSave = handleSubmit(async (v) => {
    setMessage(null);
    try {
      const answer = await save.mutateAsync(
        v.enabled
          ? { frequency, recipients: lines(v.recipients), send_hour: Number(v.send_hour) }
          : { frequency: "off", schedule: frequency },
      );
      const now = answer[frequency];
      reset({
        enabled: now !== null,
        recipients: (now?.recipients ?? []).join("\n"),
        send_hour: now?.send_hour ?? Number(v.send_hour),
      });
      setMessage({ color: "success", text: now ? `${info.title} saved.` : `${info.title} turned off.` });
    } catch (err) {
      const issue = issuesOf(err).find((i) => i.path.startsWith("recipients"));
      if (issue) {
        const line = /^recipients\.(\d+)$/.exec(issue.path)?.[1];
        setError("recipients", { message: line ? `Line ${Number(line) + 1}: ${issue.message}` : issue.message });
      } else setMessage({ color: "danger", text: messageOf(err, "The schedule could not be saved.") });
    }
  });

  const onSendNow = handleSubmit(async (v) => {
    setMessage(null);
    try {
      const typed = lines(v.recipients);
      const r = await sendNow.mutateAsync({ frequency, ...(typed.length > 0 ? { recipients: typed } : {}) });
      setMessage({
        color: "success",
        text: `Sent the report for ${r.from} – ${r.to} to ${r.sent.length === 1 ? r.sent[0] : `${r.sent.length} recipients`}.`,
      });
    } catch (err) {
      setMessage({ color: "danger", text: messageOf(err, "The report could not be sent.") });
    }
  });

  const recipientsError = formState.errors.recipients?.message;
  return (
    <CForm onSubmit={onSave} noValidate>
      <CFormSwitch id={`${id}-enabled`} label={`Send the ${frequency} report`} {...register("enabled")} />
      <p className="small text-body-secondary mt-1">
        {info.when(hour(Number.isFinite(sendHour) ? sendHour : 9))} ({timezone}), covering {info.covers}.
      </p>
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-recipients`}>Recipients</CFormLabel>
        <CFormTextarea
          id={`${id}-recipients`}
          rows={3}
          spellCheck={false}
          autoCapitalize="off"
          placeholder="name@example.com"
          invalid={recipientsError !== undefined}
          aria-describedby={`${id}-recipients-help${recipientsError ? ` ${id}-recipients-error` : ""}`}
          {...register("recipients")}
        />
        {recipientsError && (
          <div id={`${id}-recipients-error`} className="text-danger-emphasis small mt-1">
            {recipientsError}
          </div>
        )}
        <CFormText id={`${id}-recipients-help`}>
          One e-mail address per line, up to {MAX_REPORT_RECIPIENTS}. They need no account; each copy has its own unsubscribe
          link.
        </CFormText>
      </div>
      <div className="mb-3">
        <CFormLabel htmlFor={`${id}-hour`}>Send hour</CFormLabel>
        <CFormSelect id={`${id}-hour`} className="w-auto" disabled={!enabled} {...register("send_hour")}>
          {HOURS.map((h) => (
            <option key={h} value={h}>
              {hour(h)}
            </option>
          ))}
        </CFormSelect>
      </div>
      {message && (
        <CAlert color={message.color} className="py-2" role={message.color === "danger" ? "alert" : "status"}>
          {message.text}
        </CAlert>
      )}
      <div className="d-flex flex-wrap gap-2 mb-3">
        <CButton type="submit" color="primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </CButton>
        <CButton type="button" color="secondary" variant="outline" disabled={sendNow.isPending} onClick={() => void onSendNow()}>
          {sendNow.isPending ? "Sending…" : "Send now"}
        </CButton>
      </div>
      <Status schedule={schedule} timezone={timezone} />
    </CForm>
  );
}

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1_048_576 ? `${(bytes / 1024).toFixed(1)} kB` : `${(bytes / 1_048_576).toFixed(1)} MB`;

function ExportPanel({ property }: { property: CurrentProperty }) {
  const { range } = useDateRange();
  const [state, setState] = useState<
    | { kind: "idle" }
    | { kind: "busy"; bytes: number }
    | { kind: "done"; name: string; bytes: number }
    | { kind: "error"; text: string }
  >({ kind: "idle" });
  const download = async () => {
    setState({ kind: "busy", bytes: 0 });
    try {
      const { blob, filename } = await downloadExport(property.unique_id, apiPeriod(range), ({ bytes }) =>
        setState({ kind: "busy", bytes }),
      );
      saveFile(blob, filename);
      setState({ kind: "done", name: filename, bytes: blob.size });
    } catch (err) {
      setState({ kind: "error", text: messageOf(err, "The export could not be downloaded.") });
    }
  };
  return (
    <>
      <p className="small text-body-secondary">
        The stats of the chosen range as a ZIP of CSV files in Plausible's export format (visitors, sources, pages, entry and exit
        pages, custom events, locations, devices, browsers, operating systems), one row per day and value.
      </p>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <DateRangePicker />
        <CButton color="primary" onClick={() => void download()} disabled={state.kind === "busy"}>
          {state.kind === "busy" ? "Downloading…" : "Download ZIP"}
        </CButton>
      </div>
      <div className="mt-2 small" role="status" aria-live="polite" data-testid="export-status">
        {state.kind === "busy" && (
          <span className="d-inline-flex align-items-center gap-2">
            <CSpinner size="sm" aria-hidden="true" /> Preparing and downloading: {size(state.bytes)} received
          </span>
        )}
        {state.kind === "done" && `Downloaded ${state.name} (${size(state.bytes)}).`}
      </div>
      {state.kind === "error" && (
        <CAlert color="danger" className="py-2 mt-2" role="alert">
          {state.text}
        </CAlert>
      )}
    </>
  );
}

function Schedules({ property, data, canEdit }: { property: CurrentProperty; data: ReportSchedulesAnswer; canEdit: boolean }) {
  return (
    <div className="reports-grid">
      {(["weekly", "monthly"] as const).map((f) => (
        <CCard key={f} className="report-card">
          <CCardBody>
            <h3 className="h5">{INFO[f].title}</h3>
            {canEdit ? (
              <ScheduleEditor property={property} frequency={f} schedule={data[f]} timezone={data.timezone} />
            ) : (
              <ReadOnlySchedule frequency={f} schedule={data[f]} timezone={data.timezone} />
            )}
          </CCardBody>
        </CCard>
      ))}
    </div>
  );
}

export default function ReportsSection({ property, canEdit }: SectionProps) {
  const reports = useReports(property?.unique_id ?? "");
  if (!property) return null;
  return (
    <>
      <p className="text-body-secondary">
        E-mail reports with the period's visitors, pageviews, bounce rate and visit duration (each against the period before), a
        chart of visitors per day, the top sources, pages and goals.
      </p>
      {reports.error ? (
        <CAlert color="danger">{messageOf(reports.error, "The report schedules could not be loaded.")}</CAlert>
      ) : !reports.data ? (
        <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
          <CSpinner size="sm" aria-hidden="true" /> Loading the schedules…
        </div>
      ) : (
        <Schedules property={property} data={reports.data} canEdit={canEdit} />
      )}
      <h3 className="h5 mt-4">Export</h3>
      {canEdit ? (
        <ExportPanel property={property} />
      ) : (
        <p className="text-body-secondary small">Admins and owners can export this property's stats.</p>
      )}
    </>
  );
}
