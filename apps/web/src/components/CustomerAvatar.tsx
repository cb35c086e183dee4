// A customer's avatar (SPEC.md §2): their Gravatar shown 36 px wide, or a bundled placeholder when
// there is no e-mail or the image cannot load (offline, blocked).
import { useState } from "react";
import placeholder from "./avatar-placeholder.svg";
import { AVATAR_SIZE, gravatarUrl } from "./gravatar";

const AVATAR_DISPLAY_PX = 36;

export function CustomerAvatar({ email, size = AVATAR_SIZE, alt = "" }: { email?: string | null; size?: number; alt?: string }) {
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const src = email && failedFor !== email ? gravatarUrl(email, size) : placeholder;
  return (
    <img
      className="customer-avatar rounded-circle"
      src={src}
      width={AVATAR_DISPLAY_PX}
      height={AVATAR_DISPLAY_PX}
      alt={alt}
      referrerPolicy="no-referrer"
      onError={() => setFailedFor(email ?? null)}
    />
  );
}
