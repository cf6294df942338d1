xls = pd.ExcelFile("/mnt/data/report.xlsx")
sheets = {name: xls.parse(name) for name in xls.sheet_names}
for name, sheet in sheets.items():
    print(name, sheet.shape)
with pd.ExcelWriter("/mnt/data/report_clean.xlsx") as writer:
    for name, sheet in sheets.items():
        sheet.dropna(how="all").to_excel(writer, sheet_name=name, index=False)
