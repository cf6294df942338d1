import pandas as pd

df = pd.read_csv("/mnt/data/sales.csv", parse_dates=["order_date"])
monthly = df.groupby(df["order_date"].dt.to_period("M"))["amount"].sum()
print(monthly.tail(12))
