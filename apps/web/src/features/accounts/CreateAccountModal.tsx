// "Create account" from the avatar menu: a name, then the new account (the user its owner)
// becomes the current one, empty, ready for its first property. Loaded when first opened: the
// header is on every screen's first load (DESIGN.md §8's budget), this form is rarely used.
import {
  CAlert,
  CButton,
  CForm,
  CFormInput,
  CFormLabel,
  CFormText,
  CModal,
  CModalBody,
  CModalFooter,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from "@coreui/react";
import { zodResolver } from "@hookform/resolvers/zod";
import { type AccountCreateBody, AccountCreateBodySchema, type AccountListItem } from "@lookout/schema";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { messageOf } from "../../lib/http";
import { useCreateAccount } from "./queries";

export default function CreateAccountModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (a: AccountListItem) => void;
}) {
  const id = useId();
  const create = useCreateAccount();
  const { register, handleSubmit, formState } = useForm<AccountCreateBody>({
    resolver: zodResolver(AccountCreateBodySchema),
    defaultValues: { name: "" },
  });
  const submit = handleSubmit(async (body) => {
    try {
      onCreated(await create.mutateAsync(body));
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const nameError = formState.errors.name?.message;
  return (
    <CModal visible onClose={onClose} aria-labelledby={`${id}-title`} alignment="center">
      <CModalHeader>
        <CModalTitle id={`${id}-title`}>Create an account</CModalTitle>
      </CModalHeader>
      <CForm onSubmit={submit} noValidate>
        <CModalBody>
          {create.error && (
            <CAlert color="danger" role="alert">
              {messageOf(create.error, "The account could not be created.")}
            </CAlert>
          )}
          <CFormLabel htmlFor={`${id}-name`}>Account name</CFormLabel>
          <CFormInput
            id={`${id}-name`}
            autoComplete="organization"
            placeholder="e.g. Acme Inc."
            aria-describedby={`${id}-help`}
            invalid={!!nameError}
            feedbackInvalid={nameError}
            {...register("name")}
          />
          <CFormText id={`${id}-help`}>
            A separate workspace with its own properties, members and plan. You will be its owner, and it opens right away.
          </CFormText>
        </CModalBody>
        <CModalFooter>
          <CButton color="secondary" variant="outline" onClick={onClose}>
            Cancel
          </CButton>
          <CButton type="submit" color="primary" disabled={create.isPending}>
            {create.isPending && <CSpinner as="span" size="sm" className="me-2" aria-hidden="true" />}
            Create account
          </CButton>
        </CModalFooter>
      </CForm>
    </CModal>
  );
}
