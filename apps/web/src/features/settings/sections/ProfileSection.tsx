// Settings › Your profile: the signed-in user's name and e-mail, password, and active sessions.
// Every member may change their own profile, whatever their role in the account.
import { CAlert, CSpinner } from "@coreui/react";
import { messageOf } from "../../../lib/http";
import { PasswordForm } from "../../me/PasswordForm";
import { ProfileForm } from "../../me/ProfileForm";
import { useMe } from "../../me/queries";
import { SessionsList } from "../../me/SessionsList";
import type { SectionProps } from "../section-props";

export default function ProfileSection(_props: SectionProps) {
  const me = useMe();
  if (me.error) {
    return (
      <CAlert color="danger" role="alert">
        {messageOf(me.error, "Your profile could not be loaded.")}
      </CAlert>
    );
  }
  if (!me.data) {
    return (
      <div className="text-center py-3" role="status">
        <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading your profile</span>
      </div>
    );
  }
  const { user } = me.data;
  return (
    <>
      <section aria-labelledby="profile-details" className="mb-4">
        <h3 id="profile-details" className="h5">
          Name and e-mail
        </h3>
        <ProfileForm name={user.name} email={user.email} />
      </section>
      <section aria-labelledby="profile-password" className="mb-4">
        <h3 id="profile-password" className="h5">
          Password
        </h3>
        <PasswordForm email={user.email} />
      </section>
      <section aria-labelledby="profile-sessions">
        <h3 id="profile-sessions" className="h5">
          Active sessions
        </h3>
        <p className="text-body-secondary">
          Where you are signed in. Revoke a session you do not recognise; changing your password signs out all but this one.
        </p>
        <SessionsList />
      </section>
    </>
  );
}
