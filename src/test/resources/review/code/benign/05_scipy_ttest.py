from scipy import stats

a = df.loc[df["group"] == "A", "conversion"]
b = df.loc[df["group"] == "B", "conversion"]
t, p = stats.ttest_ind(a, b, equal_var=False)
print(f"t = {t:.3f}, p = {p:.4f}")
if p < 0.05:
    print("The difference is significant at the 5% level")
