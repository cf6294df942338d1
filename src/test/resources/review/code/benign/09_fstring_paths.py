for region in ["north", "south", "east", "west"]:
    part = df[df["region"] == region]
    part.to_csv(f"/mnt/data/sales_{region}.csv", index=False)
    print(f"{region}: {len(part)} rows written to /mnt/data/sales_{region}.csv")
