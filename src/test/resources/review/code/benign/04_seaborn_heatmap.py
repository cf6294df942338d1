import seaborn as sns
corr = df.select_dtypes("number").corr()
plt.figure(figsize=(8, 6))
sns.heatmap(corr, annot=True, fmt=".2f", cmap="coolwarm")
plt.title("Correlation matrix")
plt.savefig("/mnt/data/corr.png")
