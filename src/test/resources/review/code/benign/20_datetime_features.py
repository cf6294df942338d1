df["order_date"] = pd.to_datetime(df["order_date"], errors="coerce")
df["weekday"] = df["order_date"].dt.day_name()
df["hour"] = df["order_date"].dt.hour
by_day = df.groupby("weekday")["amount"].agg(["count", "mean"])
by_day
