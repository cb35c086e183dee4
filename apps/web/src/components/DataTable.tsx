// A plain list drawn with TanStack Table on CoreUI's CTable, for the account's and the user's
// settings (API keys, sessions): no sorting or paging, as these lists are short. A column may be
// hidden on phones (`phoneHidden`) so the table fits 375 px without scrolling sideways.
import { CTable, CTableBody, CTableDataCell, CTableHead, CTableHeaderCell, CTableRow } from "@coreui/react";
import { type ColumnDef, type RowData, tableFeatures, useTable } from "@tanstack/react-table";

export interface DataColumnMeta {
  /** Hidden below 576 px. */
  phoneHidden?: boolean;
  /** Right-aligned (actions). */
  end?: boolean;
}

export const dataTableFeatures = tableFeatures({ columnMeta: {} as DataColumnMeta });
export type DataColumn<Row extends RowData> = ColumnDef<typeof dataTableFeatures, Row, unknown>;

function classes(meta: DataColumnMeta | undefined): string | undefined {
  const c = `${meta?.phoneHidden ? "d-none d-sm-table-cell" : ""} ${meta?.end ? "text-end" : ""}`.trim();
  return c || undefined;
}

export function DataTable<Row extends RowData>({
  columns,
  rows,
  rowId,
  caption,
}: {
  columns: DataColumn<Row>[];
  rows: Row[];
  rowId: (row: Row) => string;
  caption: string;
}) {
  const table = useTable({ features: dataTableFeatures, columns, data: rows, getRowId: rowId });
  return (
    // A very long unbroken value scrolls inside the table's box, never the page.
    <div className="table-responsive">
      <CTable small hover align="middle" className="mb-0 settings-table" caption="top">
        <caption className="visually-hidden">{caption}</caption>
        <CTableHead>
          {table.getHeaderGroups().map((group) => (
            <CTableRow key={group.id}>
              {group.headers.map((header) => (
                <CTableHeaderCell
                  key={header.id}
                  scope="col"
                  className={`text-nowrap ${classes(header.column.columnDef.meta) ?? ""}`.trim()}
                >
                  <table.FlexRender header={header} />
                </CTableHeaderCell>
              ))}
            </CTableRow>
          ))}
        </CTableHead>
        <CTableBody>
          {table.getRowModel().rows.map((row) => (
            <CTableRow key={row.id} data-row-id={row.id}>
              {row.getAllCells().map((cell) => (
                <CTableDataCell key={cell.id} className={classes(cell.column.columnDef.meta)}>
                  <table.FlexRender cell={cell} />
                </CTableDataCell>
              ))}
            </CTableRow>
          ))}
        </CTableBody>
      </CTable>
    </div>
  );
}
