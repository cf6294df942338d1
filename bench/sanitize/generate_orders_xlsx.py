#!/usr/bin/python3
"""The orders CSV as a workbook, written by openpyxl (what Code Interpreter reads workbooks with).

    /usr/bin/python3 generate_orders_xlsx.py IN.csv OUT.xlsx

One sheet "Orders" with the CSV's header and rows; order_id and amount are numbers, the other cells
strings (empty cells are left out), as a spreadsheet export would have them. openpyxl's write-only mode
streams the rows and stores the strings inline. Needs Debian python3-openpyxl (run with /usr/bin/python3).
"""
import csv
import sys

from openpyxl import Workbook


def main():
    src, dst = sys.argv[1], sys.argv[2]
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Orders")
    with open(src, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        sheet.append(header)
        numeric = {header.index("order_id"), header.index("amount")}
        for row in rows:
            sheet.append([(float(v) if "." in v else int(v)) if i in numeric and v else (v or None)
                          for i, v in enumerate(row)])
    book.save(dst)


if __name__ == "__main__":
    main()
