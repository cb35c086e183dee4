// The frame of the public screens: the brand above one centred card, on the tertiary background.
import { CCard, CCardBody, CCol, CContainer, CRow } from "@coreui/react";
import type { ReactNode } from "react";
import { BrandMark } from "../../components/BrandMark";

export function AuthLayout({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="bg-body-tertiary min-vh-100 d-flex flex-row align-items-center py-4">
      <CContainer>
        <CRow className="justify-content-center">
          <CCol className="auth-column">
            <div className="d-flex align-items-center justify-content-center gap-2 mb-4">
              <BrandMark size={36} />
              <span className="fs-3 fw-semibold">Lookout</span>
            </div>
            <CCard className="p-2 p-sm-3">
              <CCardBody>
                <main>
                  <h1 className="h3">{title}</h1>
                  <p className="text-body-secondary">{intro}</p>
                  {children}
                </main>
              </CCardBody>
            </CCard>
          </CCol>
        </CRow>
      </CContainer>
    </div>
  );
}
