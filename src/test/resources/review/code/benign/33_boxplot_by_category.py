sns.boxplot(data=df, x="category", y="price")
plt.xticks(rotation=90)
plt.tight_layout()
plt.savefig("/mnt/data/box.png", bbox_inches="tight")
