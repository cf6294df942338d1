pivot = pd.pivot_table(df, values="amount", index="region", columns="product", aggfunc="sum", fill_value=0)
pivot.to_excel("/mnt/data/pivot.xlsx")
pivot
