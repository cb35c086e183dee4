// /reports shows the settings screen (SPEC.md §2): report schedules are part of a property's
// settings.
import SettingsPage from "../settings/SettingsPage";

export default function ReportsPage() {
  return <SettingsPage />;
}
