import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(10, 5))
ax.plot(monthly.index.astype(str), monthly.values, marker="o")
ax.set_title("Revenue per month")
ax.set_xlabel("Month")
plt.xticks(rotation=45)
plt.tight_layout()
plt.savefig("/mnt/data/revenue.png", dpi=150)
plt.show()
