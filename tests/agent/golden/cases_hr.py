"""Golden questions over the employees table (English): department job_level location hire_date age salary
bonus performance_score remote notes."""

from __future__ import annotations

import pandas as pd

from tests.agent.golden.cases_base import Case, scalar, table


def _corr(df: pd.DataFrame) -> pd.DataFrame:
    return scalar("corr", df["salary"].corr(df["performance_score"]))


HR = [
    Case(
        "H01",
        "hr",
        "en",
        "What is the average salary by department?",
        lambda df: table(df.groupby("department")["salary"].mean(), "avg"),
        ("department",),
    ),
    Case(
        "H02",
        "hr",
        "en",
        "How many employees are there in each location?",
        lambda df: table(df.groupby("location").size(), "n"),
        ("location",),
    ),
    Case(
        "H03",
        "hr",
        "en",
        "Which department has the highest total bonus?",
        lambda df: table(df.groupby("department")["bonus"].sum().nlargest(1), "bonus"),
        ("department",),
        ordered=True,
    ),
    Case("H04", "hr", "en", "What percentage of employees work remotely?", lambda df: scalar("r", df["remote"].mean())),
    Case(
        "H05",
        "hr",
        "en",
        "Median salary of Senior employees",
        lambda df: scalar("m", df.loc[df["job_level"] == "Senior", "salary"].median()),
    ),
    Case(
        "H06",
        "hr",
        "en",
        "Number of hires per year",
        lambda df: table(df.groupby(df["hire_date"].dt.year.rename("year")).size(), "n"),
        ("year",),
    ),
    Case(
        "H07",
        "hr",
        "en",
        "Top 3 locations by average performance score",
        lambda df: table(df.groupby("location")["performance_score"].mean().nlargest(3), "p"),
        ("location",),
        ordered=True,
    ),
    Case("H08", "hr", "en", "Correlation between salary and performance score", _corr),
    Case(
        "H09",
        "hr",
        "en",
        "Average salary in Engineering vs Sales",
        lambda df: table(
            df[df["department"].isin(["Engineering", "Sales"])].groupby("department")["salary"].mean(), "a"
        ),
        ("department",),
    ),
    Case(
        "H10", "hr", "en", "How many distinct job levels are there?", lambda df: scalar("n", df["job_level"].nunique())
    ),
    Case(
        "H11",
        "hr",
        "en",
        "Total salary of employees older than 40",
        lambda df: scalar("s", df.loc[df["age"] > 40, "salary"].sum()),
    ),
    Case(
        "H12",
        "hr",
        "zh",
        "各部门的平均薪资",
        lambda df: table(df.groupby("department")["salary"].mean(), "avg"),
        ("department",),
    ),
    Case(
        "H13",
        "hr",
        "zh",
        "远程办公员工的平均绩效评分",
        lambda df: scalar("p", df.loc[df["remote"], "performance_score"].mean()),
    ),
    Case(
        "H14",
        "hr",
        "zh",
        "每个地点有多少员工",
        lambda df: table(df.groupby("location").size(), "n"),
        ("location",),
    ),
    Case(  # lookup: the values of the column asked for, each once
        "H15",
        "hr",
        "en",
        "Which job levels are there in Shanghai?",
        lambda df: pd.DataFrame({"job_level": sorted(df.loc[df["location"] == "Shanghai", "job_level"].unique())}),
        ("job_level",),
    ),
    Case(  # tied_extreme: how many rows hold the top value, ties counted
        "H16",
        "hr",
        "en",
        "How many employees had the lowest age?",
        lambda df: table(df.groupby("age").size().sort_index().head(1), "n"),
        ("age",),
    ),
    Case(
        "H17",
        "hr",
        "zh",
        "年龄最大的员工有几个？",
        lambda df: table(df.groupby("age").size().sort_index(ascending=False).head(1), "n"),
        ("age",),
    ),
    Case(  # row_position: a row by its place in the uploaded file, with its row number
        "H18",
        "hr",
        "en",
        "What is the location of the last employee listed?",
        lambda df: pd.DataFrame({"location": [df["location"].iloc[-1]], "@row": [len(df)]}),
        ("location",),
    ),
    Case(
        "H19",
        "hr",
        "zh",
        "第5行的salary是多少？",
        lambda df: pd.DataFrame({"salary": [df["salary"].iloc[4]], "@row": [5]}),
    ),
    Case(
        "H20",
        "hr",
        "en",
        "What is the salary of the first employee listed in Shanghai?",
        lambda df: pd.DataFrame(
            {
                "salary": [df.loc[df["location"] == "Shanghai", "salary"].iloc[0]],
                "@row": [int(df.index[df["location"] == "Shanghai"][0]) + 1],
            }
        ),
    ),
]
