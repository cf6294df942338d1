df = pd.read_csv("sales.csv")
df.to_csv("./out/sales_clean.csv", index=False)
with open("notes.txt", "w") as f:
    f.write("cleaned\n")
