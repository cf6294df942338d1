plt.hist(df["age"].dropna(), bins=30, edgecolor="black")
plt.title("Age distribution")
plt.savefig("/mnt/data/age_hist.png")
