// A property's report schedules as a query; saving a schedule refreshes it, "send now" does not
// change it (a preview leaves the period unsent).
import type { PutReportSchedule, SendReportNow } from "@lookout/schema";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getReports, putReport, sendReportNow } from "./api";

export const reportKeys = {
  all: ["reports"] as const,
  property: (propertyId: string) => ["reports", propertyId] as const,
};

export function useReports(propertyId: string) {
  return useQuery({ queryKey: reportKeys.property(propertyId), queryFn: ({ signal }) => getReports(propertyId, signal) });
}

export function useSaveReport(propertyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PutReportSchedule) => putReport(propertyId, body),
    onSuccess: (data) => client.setQueryData(reportKeys.property(propertyId), data),
  });
}

export function useSendReportNow(propertyId: string) {
  return useMutation({ mutationFn: (body: SendReportNow) => sendReportNow(propertyId, body) });
}
