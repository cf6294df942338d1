from scipy.stats import chi2_contingency
table = pd.crosstab(df["segment"], df["churned"])
chi2, p, dof, expected = chi2_contingency(table)
print(table)
print(f"chi2={chi2:.2f} dof={dof} p={p:.4f}")
