total = df["amount"].sum()
print(f"Total revenue: {total:,.2f} EUR across {df['region'].nunique()} regions")
print(f"Largest order: {df.loc[df['amount'].idxmax(), 'order_id']!r}")
