import statsmodels.formula.api as smf
fit = smf.ols("revenue ~ ad_spend + C(region)", data=df).fit()
print(fit.summary())
