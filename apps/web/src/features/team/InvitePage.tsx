// /invite/{token} (issue #20): the e-mailed invitation link, a public screen in the login
// screen's frame. It names the account, the inviter, the role and the invited address, then:
// - signed out: a new person sets a name and password and joins (the answer signs them in, stored
//   as after a login); someone with a login for that address logs in first and comes back here;
// - signed in as the invited address: Join;
// - signed in as someone else: the invitation is for another address (sign out here to continue);
// - expired, used, revoked or unknown links say so plainly.
// After joining, the inviting account is the current one (SPEC.md's `accountId`) on the dashboard.
import { cilLockLocked, cilUser } from "@coreui/icons";
import CIcon from "@coreui/icons-react";
import { CAlert, CButton, CForm, CFormInput, CFormLabel, CFormText, CInputGroup, CInputGroupText, CSpinner } from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { type InvitationAcceptAnswer, InvitationAcceptBodySchema, type InvitationPreview, PASSWORD_MIN } from "@lookout/schema";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useParams } from "react-router-dom";
import { z } from "zod";
import { HttpError, messageOf } from "../../lib/http";
import { loginPathFor } from "../../lib/return-to";
import { StorageKey } from "../../lib/storage-keys";
import { AuthLayout } from "../auth/AuthLayout";
import { BusyButton } from "../auth/BusyButton";
import { revokeToken } from "../auth/revoke";
import { useSession } from "../auth/session";
import { switchAccount } from "../accounts/api";
import { acceptInvitation, previewInvitation } from "./api";
import { closedInvitation, INVITE_NOT_FOUND, sameEmail } from "./invite-texts";
import { withArticle } from "./member-rules";

const JOIN_FAILED = "The invitation could not be accepted. Please try again.";

const NewMemberSchema = z
  .object({
    name: InvitationAcceptBodySchema.shape.name.unwrap(),
    password: InvitationAcceptBodySchema.shape.password.unwrap(),
    repeat: z.string(),
  })
  .refine((f) => f.repeat === f.password, { message: "The two passwords do not match.", path: ["repeat"] });
type NewMember = z.infer<typeof NewMemberSchema>;

function Summary({ preview }: { preview: InvitationPreview }) {
  const inviter = preview.inviter_name.trim() || "An admin";
  return (
    <div className="mb-4">
      <p className="mb-2">
        <strong className="text-break">{inviter}</strong> invited you to join{" "}
        <strong className="text-break">{preview.account_name}</strong> as <strong>{withArticle(preview.role)}</strong>.
      </p>
      <p className="mb-0 small text-body-secondary">
        Invitation for <span className="text-break text-body">{preview.email}</span>
      </p>
    </div>
  );
}

function NewMemberForm({
  token,
  preview,
  onJoined,
}: {
  token: string;
  preview: InvitationPreview;
  onJoined: (a: InvitationAcceptAnswer) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState(false);
  const { register, handleSubmit, formState } = useForm<NewMember>({
    resolver: zodResolver(NewMemberSchema),
    defaultValues: { name: "", password: "", repeat: "" },
  });
  const submit = handleSubmit(async ({ name, password }) => {
    setError(null);
    try {
      const answer = await acceptInvitation({ token, name, password });
      setJoined(true);
      onJoined(answer);
    } catch (err) {
      setError(messageOf(err, JOIN_FAILED));
    }
  });
  const err = formState.errors;
  return (
    <CForm onSubmit={submit} noValidate>
      {error && (
        <CAlert color="danger" role="alert">
          {error}
        </CAlert>
      )}
      <h2 className="h6">New to Lookout?</h2>
      <p className="small text-body-secondary">Choose your name and a password to create your login and join.</p>
      <CFormLabel htmlFor="invite-name">Your name</CFormLabel>
      <CInputGroup className="mb-3 has-validation">
        <CInputGroupText>
          <CIcon icon={cilUser} aria-hidden="true" />
        </CInputGroupText>
        <CFormInput
          id="invite-name"
          autoComplete="name"
          invalid={!!err.name}
          feedbackInvalid={err.name?.message}
          {...register("name")}
        />
      </CInputGroup>
      {/* The address the login will have, for password managers to file the new password under. */}
      <input type="email" name="username" autoComplete="username" value={preview.email} readOnly hidden />
      <CFormLabel htmlFor="invite-password">Password</CFormLabel>
      <CInputGroup className="has-validation">
        <CInputGroupText>
          <CIcon icon={cilLockLocked} aria-hidden="true" />
        </CInputGroupText>
        <CFormInput
          id="invite-password"
          type="password"
          autoComplete="new-password"
          aria-describedby="invite-password-help"
          invalid={!!err.password}
          feedbackInvalid={err.password?.message}
          {...register("password")}
        />
      </CInputGroup>
      <CFormText id="invite-password-help" className="d-block mb-3">
        At least {PASSWORD_MIN} characters.
      </CFormText>
      <CFormLabel htmlFor="invite-repeat">Repeat the password</CFormLabel>
      <CInputGroup className="mb-4 has-validation">
        <CInputGroupText>
          <CIcon icon={cilLockLocked} aria-hidden="true" />
        </CInputGroupText>
        <CFormInput
          id="invite-repeat"
          type="password"
          autoComplete="new-password"
          invalid={!!err.repeat}
          feedbackInvalid={err.repeat?.message}
          {...register("repeat")}
        />
      </CInputGroup>
      <BusyButton busy={formState.isSubmitting || joined} idleText="Join" busyText="Joining..." />
    </CForm>
  );
}

function SignedInJoin(props: { token: string; preview: InvitationPreview; onJoined: (a: InvitationAcceptAnswer) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const join = async () => {
    setError(null);
    setBusy(true);
    try {
      props.onJoined(await acceptInvitation({ token: props.token }));
    } catch (err) {
      setError(messageOf(err, JOIN_FAILED));
      setBusy(false);
    }
  };
  return (
    <>
      {error && (
        <CAlert color="danger" role="alert">
          {error}
        </CAlert>
      )}
      <CButton color="primary" className="px-4" disabled={busy} onClick={() => void join()}>
        {busy && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
        {busy ? "Joining..." : `Join ${props.preview.account_name}`}
      </CButton>
    </>
  );
}

function OtherUser({ email, preview, onSignOut }: { email: string; preview: InvitationPreview; onSignOut: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <>
      <CAlert color="warning" role="alert">
        This invitation is for <strong className="text-break">{preview.email}</strong>, but you are signed in as{" "}
        <strong className="text-break">{email}</strong>. Sign out, then accept it as {preview.email}.
      </CAlert>
      <div className="d-flex flex-wrap gap-3 align-items-center">
        <CButton
          color="primary"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            onSignOut();
          }}
        >
          {busy ? "Signing out..." : "Sign out"}
        </CButton>
        <Link to="/dashboard">Back to your dashboard</Link>
      </div>
    </>
  );
}

export default function InvitePage() {
  const { token = "" } = useParams();
  const { session, signIn, signOut } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const preview = useQuery({
    queryKey: ["invitation", token],
    queryFn: ({ signal }) => previewInvitation(token, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

  /** The account joined becomes the current one, with no property of another account selected. */
  const onJoined = async (answer: InvitationAcceptAnswer) => {
    localStorage.removeItem(StorageKey.currentProperty);
    if (session) {
      signIn({ token: session.token, accountId: answer.accountId, accountId2: session.accountId2, email: session.email });
      // The user's list of accounts grew; every query of the old account is stale.
      await client.invalidateQueries();
      // Login answers with the last used account: this one.
      await switchAccount(answer.accountId).catch((err: unknown) => console.warn("Could not record the account switch", err));
    } else if (answer.token && answer.accountId2 && answer.email) {
      signIn({ token: answer.token, accountId: answer.accountId, accountId2: answer.accountId2, email: answer.email });
    } else {
      navigate(loginPathFor("/dashboard"), { replace: true });
      return;
    }
    navigate("/dashboard", { replace: true });
  };

  const signOutHere = () => {
    revokeToken()
      .catch((err: unknown) => console.error("Could not revoke the token", err))
      .finally(signOut);
  };

  if (preview.isPending) {
    return (
      <AuthLayout title="Invitation" intro="Opening your invitation…">
        <div className="text-center py-2" role="status">
          <CSpinner size="sm" aria-hidden="true" /> <span className="visually-hidden">Loading the invitation</span>
        </div>
      </AuthLayout>
    );
  }

  if (preview.error) {
    const notFound = preview.error instanceof HttpError && preview.error.status === 404;
    return (
      <AuthLayout title={notFound ? INVITE_NOT_FOUND.title : "Invitation"} intro={notFound ? INVITE_NOT_FOUND.text : ""}>
        {!notFound && (
          <CAlert color="danger" role="alert">
            {messageOf(preview.error, "The invitation could not be loaded. Check your connection and try again.")}
          </CAlert>
        )}
        <div className="d-flex flex-wrap gap-3">
          {!notFound && (
            <CButton color="primary" onClick={() => void preview.refetch()}>
              Try again
            </CButton>
          )}
          <Link to="/login">Go to Login</Link>
        </div>
      </AuthLayout>
    );
  }

  const data = preview.data;
  if (data.state !== "valid") {
    const closed = closedInvitation(data.state, data.inviter_name, data.account_name);
    return (
      <AuthLayout title={closed.title} intro={closed.text}>
        <Link to={session ? "/dashboard" : "/login"}>{session ? "Go to your dashboard" : "Go to Login"}</Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={`Join ${data.account_name}`} intro="You have been invited to a Lookout account.">
      <Summary preview={data} />
      {!session ? (
        <>
          <NewMemberForm token={token} preview={data} onJoined={(a) => void onJoined(a)} />
          <hr className="my-4" />
          <p className="mb-0 small">
            Already have a Lookout login for {data.email}?{" "}
            <Link to={loginPathFor(`/invite/${encodeURIComponent(token)}`)}>Log in to accept</Link>
          </p>
        </>
      ) : sameEmail(session.email, data.email) ? (
        <SignedInJoin token={token} preview={data} onJoined={(a) => onJoined(a)} />
      ) : (
        <OtherUser email={session.email} preview={data} onSignOut={signOutHere} />
      )}
    </AuthLayout>
  );
}
