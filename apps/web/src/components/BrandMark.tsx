// Lookout's mark: a magnifier over a chart line, drawn inline so it inherits the text colour.
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="var(--cui-primary)" />
      <circle cx="14" cy="14" r="7" fill="none" stroke="#fff" strokeWidth="3" />
      <path d="M19 19l6 6" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
