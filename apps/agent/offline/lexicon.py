"""Words the offline planner knows: business concepts in Chinese and English, and analysis vocabulary.

Concepts extend the glossary of `resolve_fields` (one place for "revenue = 销售额 = 金额"); the rest is
the vocabulary of analysis questions (aggregations, time grains, rankings, shares, comparisons).
"""

from __future__ import annotations

from apps.datasets.query.resolve import GLOSSARY, LEAVES_OUT_WORDS

# Concept -> the words (Chinese and English) people use for it. A column "belongs" to a concept when
# its name is, or contains, one of the words; the other words then reach that column too.
_EXTRA_CONCEPTS: dict[str, tuple[str, ...]] = {
    "revenue": (
        "revenue",
        "sales",
        "turnover",
        "gmv",
        "income",
        "营业额",
        "销售金额",
        "成交额",
        "销售额",
        "收入",
        "营收",
        "销售",
    ),
    "amount": ("amount", "金额", "数额"),
    "price": ("price", "unit price", "价格", "单价", "售价"),
    "cost": ("cost", "expense", "spend", "成本", "费用", "支出"),
    "profit": ("profit", "利润", "毛利", "盈利"),
    "quantity": ("quantity", "qty", "units", "volume", "sold", "数量", "件数", "销量", "数目", "卖出", "卖得", "售出"),
    "region": ("region", "area", "地区", "区域", "大区"),
    "location": ("location", "office", "site", "city", "地点", "办公地点", "所在地", "城市"),
    "country": ("country", "国家"),
    "product": ("product", "item", "goods", "sku", "产品", "商品", "货品", "商品名称"),
    "category": ("category", "class", "类别", "品类", "类目", "分类"),
    "order": ("order", "订单"),
    "return": ("return", "refund", "退货", "退款"),
    "reason": ("reason", "原因"),
    "account": ("account", "shop", "账号", "账户", "店铺"),
    "channel": ("channel", "source", "medium", "渠道", "来源"),
    "employee": ("employee", "staff", "people", "worker", "员工", "职员", "人员"),
    "department": ("department", "dept", "team", "division", "部门"),
    "salary": (
        "salary",
        "pay",
        "paid",
        "wage",
        "earn",
        "earning",
        "compensation",
        "薪资",
        "工资",
        "薪水",
        "薪酬",
        "月薪",
    ),
    "bonus": ("bonus", "奖金"),
    "age": ("age", "年龄"),
    "performance": ("performance", "绩效", "表现"),
    "score": ("score", "rating", "评分", "分数", "得分"),
    "level": ("level", "grade", "seniority", "职级", "级别", "等级"),
    "gender": ("gender", "sex", "性别"),
    "hire": ("hire", "joined", "入职"),
    "remote": ("remote", "wfh", "远程", "远程办公"),
    "session": ("session", "visit", "会话", "访问", "访问量", "会话数"),
    "pageview": ("page view", "pageview", "pv", "浏览量", "页面浏览", "页面浏览量"),
    "bounce": ("bounce", "跳出"),
    "conversion": ("conversion", "转化", "转化数"),
    "click": ("click", "点击"),
    "impression": ("impression", "曝光", "展示"),
    "device": ("device", "platform", "设备", "终端"),
    "warehouse": ("warehouse", "depot", "仓库"),
    "inbound": ("inbound", "stock in", "received", "入库"),
    "outbound": ("outbound", "stock out", "shipped", "ship", "出库"),
    "stock": ("stock", "inventory", "on hand", "库存"),
    "stockout": ("stockout", "out of stock", "shortage", "缺货"),
    "status": ("status", "状态"),
    "customer": ("customer", "client", "客户", "顾客"),
    "population": ("population", "residents", "inhabitants", "number of people", "人口", "居民"),
}
# "count" is analysis vocabulary here ("how many"), never the name of a column.
CONCEPTS: dict[str, tuple[str, ...]] = {
    key: tuple(dict.fromkeys((key, *forms, *_EXTRA_CONCEPTS.get(key, ()))))
    for key, forms in GLOSSARY.items()
    if key not in ("count", "date", "time", "month", "year")
}
for _key, _forms in _EXTRA_CONCEPTS.items():
    CONCEPTS.setdefault(_key, _forms)
# 销量 is a volume: it reaches quantity columns only, never an amount through "sales" (销售额 = sales too).
CONCEPTS["sales"] = tuple(f for f in CONCEPTS["sales"] if f not in ("销量", "sales volume", "units sold"))
# Short English forms in column names, spelt out, so "maximum temperature" reaches temp_max.
ABBREVIATIONS = {"temp": "temperature", "max": "maximum", "min": "minimum", "avg": "average", "qty": "quantity"}
ABBREVIATIONS |= {"amt": "amount", "pct": "percent", "num": "number", "cnt": "count", "prcp": "precipitation"}
ABBREVIATIONS |= {"rev": "revenue", "dept": "department", "emp": "employee", "cust": "customer", "yr": "year"}

# Words too general to tie a column to a concept when they are only part of its name ("入库数量").
GENERIC_PARTS = frozenset(
    {"数量", "金额", "日期", "时间", "名称", "数", "量", "总", "是否", "编号", "代码", "id", "no", "number", "name"}
    | {"date", "time", "total", "count", "amount", "value", "of", "per", "the", "is", "has", "code", "type", "num"}
)
TRUE_VALUES = frozenset({"是", "yes", "y", "true", "t", "1", "有"})

# Well-known values said in other words (a dataset's "Mobile" is what 移动端 means, its "Winner" what won means).
VALUE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "mobile": ("移动端", "手机端", "手机"),
    "desktop": ("桌面端", "电脑端", "pc"),
    "tablet": ("平板", "平板端"),
    "male": ("男性", "男员工"),
    "female": ("女性", "女员工"),
    "organic search": ("自然搜索",),
    "paid search": ("付费搜索",),
    "social": ("社交媒体", "社交"),
    "email": ("邮件", "电子邮件"),
    "direct": ("直接访问",),
    "referral": ("推荐", "外链"),
    "engineering": ("工程部", "研发部", "工程"),
    "sales": ("销售部",),
    "marketing": ("市场部",),
    "finance": ("财务部",),
    "support": ("客服部", "支持部"),
    # outcomes said with a verb: "how many titles did he win" keeps the rows whose Outcome is Winner
    "winner": ("won", "win", "winning"),
    "won": ("win", "winning"),
    "runner-up": ("lost", "lose", "losing"),
    "lost": ("lose", "losing"),
}
# A country named by its people or adjective: "the only australian", "which canadian": the country's cells
DEMONYMS: dict[str, tuple[str, ...]] = {
    "australia": ("australian", "australians"),
    "austria": ("austrian", "austrians"),
    "belgium": ("belgian", "belgians"),
    "brazil": ("brazilian", "brazilians"),
    "canada": ("canadian", "canadians"),
    "china": ("chinese",),
    "denmark": ("danish", "dane", "danes"),
    "england": ("english",),
    "finland": ("finnish", "finn", "finns"),
    "france": ("french",),
    "germany": ("german", "germans"),
    "great britain": ("british", "briton", "britons"),
    "greece": ("greek", "greeks"),
    "hungary": ("hungarian", "hungarians"),
    "india": ("indian", "indians"),
    "ireland": ("irish",),
    "italy": ("italian", "italians"),
    "japan": ("japanese",),
    "kenya": ("kenyan", "kenyans"),
    "mexico": ("mexican", "mexicans"),
    "netherlands": ("dutch",),
    "new zealand": ("new zealander", "new zealanders"),
    "norway": ("norwegian", "norwegians"),
    "poland": ("polish", "pole", "poles"),
    "portugal": ("portuguese",),
    "russia": ("russian", "russians"),
    "scotland": ("scottish", "scot", "scots"),
    "south africa": ("south african", "south africans"),
    "south korea": ("south korean", "south koreans"),
    "spain": ("spanish", "spaniard", "spaniards"),
    "sweden": ("swedish", "swede", "swedes"),
    "switzerland": ("swiss",),
    "united kingdom": ("british",),
    "united states": ("american", "americans"),
    "usa": ("american", "americans"),
}
VALUE_SYNONYMS |= DEMONYMS

# Rates that are a ratio of two concepts ("conversion rate" = conversions / sessions).
RATE_CONCEPTS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("conversion rate", "转化率", "cvr"), "conversion", "session"),
    (("bounce rate", "跳出率"), "bounce", "session"),
    (("click-through rate", "click through rate", "ctr", "点击率"), "click", "impression"),
    (("profit margin", "利润率"), "profit", "revenue"),
    (("客单价", "average order value", "aov"), "revenue", "order"),
    (("pages per session", "页面/会话", "人均浏览"), "pageview", "session"),
)

AGG_WORDS: dict[str, tuple[str, ...]] = {
    "avg": ("平均值", "平均数", "平均", "均值", "人均", "average", "avg", "mean"),
    "sum": (
        "总和",
        "合计",
        "总计",
        "总额",
        "总量",
        "共计",
        "一共",
        "总共",
        "总",
        "total",
        "sum",
        "overall",
        "combined",
    ),
    "median": ("中位数", "中位", "median"),
    "stddev": ("标准差", "standard deviation", "std dev", "stddev", "std"),
    "variance": ("方差", "variance"),
    "max": (
        "最大值",
        "最大",
        "最高",
        "最多",
        "峰值",
        "maximum",
        "max",
        "highest",
        "largest",
        "biggest",
        "greatest",
        "most",
    )
    + ("top",),
    "min": ("最小值", "最小", "最低", "最少", "minimum", "min", "lowest", "smallest", "least", "fewest"),
}
HIGH_WORDS = (
    "最高",
    "最大",
    "最多",
    "最好",
    "最贵",
    "highest",
    "largest",
    "biggest",
    "most",
    "best",
    "top",
    "greatest",
    "tallest",
    "deepest",
    "longest",
    "heaviest",
    "widest",
)
LOW_WORDS: tuple[str, ...] = ("最低", "最小", "最少", "最差", "最便宜", "垫底", "倒数第一")
LOW_WORDS += ("lowest", "smallest", "least", "fewest", "worst", "bottom", "shallowest", "lightest", "narrowest")
# Degrees that name what they measure ("the tallest building": its height), as the words a column's name holds
DEGREE_NOUNS = {
    "tall": ("height", "elevation"),
    "deep": ("depth",),
    "shallow": ("depth",),
    "long": ("length",),
    "heavy": ("weight",),
    "light": ("weight",),
    "wide": ("width",),
    "narrow": ("width",),
}
WHICH_WORDS = (
    "哪个",
    "哪些",
    "哪一个",
    "哪家",
    "哪位",
    "哪款",
    "哪种",
    "哪类",
    "哪月",
    "哪",
    "which",
    "what are the",
    "who",
)
RANK_WORDS = ("排名", "排行", "排序", "ranking", "rank", "ranked", "leaderboard")

COUNT_WORDS_EN = (
    *("how many", "number of", "count of", "total number of", "# of", "headcount", "count"),
    "how long is the list of",  # "how long is the list of countries that won any medals"
)
COUNT_WORDS_ZH = ("多少", "几")
COUNT_SUFFIXES_ZH = ("总数", "个数", "人数", "笔数", "单数", "条数", "数量", "数", "量")
COUNT_CLASSIFIERS = "个笔条名位家单次种类款件项座场首辆架艘支届枚本张所栋"
DISTINCT_WORDS = ("不同的", "不同", "不重复的", "不重复", "distinct", "unique", "different")
ENTITY_WORDS = ("记录", "数据", "条目", "行数", "records", "record", "rows", "row", "entries", "entry", "lines")
HEADCOUNT_WORDS = ("人数", "多少人", "几个人", "几人", "headcount", "how many people")

SHARE_WORDS: tuple[str, ...] = (
    "占比",
    "份额",
    "比重",
    "构成",
    "百分比",
    "百分之几",
    "百分之多少",
    "占多少",
    "占了多少",
)
SHARE_WORDS += ("占总", "share", "percentage", "percent", "proportion", "fraction", "what percent")
# "所有账号", "all accounts": every value together, not one group each.
ALL_WORDS = ("所有", "全部", "所有的", "全部的", "all", "all the")
# One row rather than a group: "金额最大的一笔订单", "单条退货金额最高", "the single largest order".
RECORD_WORDS: tuple[str, ...] = (
    "一笔",
    "一单",
    "单笔",
    "单条",
    "单次",
    "一条记录",
    "一条",
    "哪一单",
    "哪一笔",
    "哪笔",
    "哪条记录",
    "哪一条",
)
RECORD_WORDS += ("那条记录", "那一条", "这条记录", "single", "one record", "which record", "which transaction")
RECORD_WORDS += ("which order",)
# Asking for a figure in percent, which is a share unless a change is asked ("增长了百分之几").
PERCENT_ASKED = ("百分之几", "百分之多少", "what percent", "percentage", "percent")
# A change against the same period a year earlier (同比), or against the period just before (环比).
YOY_WORDS = ("同比", "去年同期", "上年同期", "same period last year", "year over year", "year-over-year", "yoy")
MOM_WORDS = ("环比", "month over month", "month-over-month", "quarter over quarter", "qoq", "mom")
# "截至6月", "up to June": a total from the start of the year to the end of the period named.
UNTIL_WORDS = ("截至", "截止到", "截止", "到目前为止", "为止", "year to date", "ytd", "up to", "through", "until")
RATE_WORDS = ("比例", "比率", "率", "rate", "ratio")
CHANGE_WORDS: tuple[str, ...] = (
    "环比",
    "同比",
    "增长率",
    "增速",
    "增幅",
    "变化率",
    "增长",
    "涨幅",
    "growth",
    "percent change",
    "change",
    "mom",
) + ("qoq", "yoy", "month over month", "month-over-month", "year over year", "year-over-year", "increase")
CHANGE_WORDS += ("涨了", "上涨", "跌了", "下跌", "下降", "降了")
DIFF_WORDS = ("差值", "差额", "变化量", "相差", "差距", "difference", "diff")
# "哪天卖得最好", "best-selling": sold the most, by money or by units (asked when the data has both).
SOLD_WELL: tuple[str, ...] = ("卖得最好", "卖得最多", "卖得好", "最畅销", "畅销", "销量最好")
SOLD_WELL += ("best-selling", "best selling", "sold the most", "sells best", "sold best", "sold most")
# "how many more A than B": A minus B, between two named groups (kinds/named_difference.py).
# Several named values taken as one ("the combined gold of japan and france", "上海和北京一共"): one total
COMBINED_WORDS = ("combined", "together", "altogether", "in total", "between them", "加起来", "合起来", "一共", "总共")
MORE_WORDS: tuple[str, ...] = ("how many more", "how much more", "how many fewer", "how many less", "how much less")
MORE_WORDS += ("多多少", "少多少", "差多少", "相差多少", "多了多少", "少了多少", "高多少", "低多少", "高出多少")
MORE_WORDS += ("多卖了多少",)
CUMULATIVE_WORDS = ("累计", "累积", "cumulative", "running total", "cumulatively")
CORR_WORDS = ("相关系数", "相关性", "相关", "correlation", "correlate", "correlated")
COMPARE_WORDS = ("对比", "比较", "相比", "vs", "versus", "compare", "compared", "comparison", "和", "与", "and")
TREND_WORDS = ("趋势", "走势", "变化", "随时间", "trend", "over time", "timeline", "time series")
# A measure's spread: its five-number summary (minimum, quartiles, median, maximum).
DISTRIBUTION_WORDS = ("分布情况", "分布", "描述性统计", "描述统计", "distribution", "summary statistics", "descriptive")
# The earliest or latest point of the time column ("最早的一条订单是哪天", "first order date").
EARLY_WORDS = ("最早", "最先", "首次", "第一次", "earliest", "first", "oldest")
LATE_WORDS = ("最晚", "最迟", "最新", "最后一次", "latest", "last", "most recent", "newest")
WHEN_WORDS = ("哪天", "哪一天", "什么时候", "何时", "哪个日期", "when", "what date", "which date", "which day")

# Analyses the query tools cannot do, by family: a question that needs one gets a refusal naming it and the
# nearest question that can be answered. English entries match as whole words (with plural/-ing/-ed forms).
UNSUPPORTED_ANALYSES: dict[str, tuple[str, ...]] = {
    "stat_test": tuple(
        "显著性检验 显著性 显著差异 差异显著 是否显著 显著不同 统计显著 统计学意义 假设检验 检验 p值 置信区间".split()
    )
    + tuple("方差分析 卡方 正态性 正态分布 正态 显著吗 统计上显著 统计显著性".split())
    + ("t test", "z test", "p value", "significant", "significance", "hypothesis test", "chi square", "anova")
    + ("normality", "normally distributed", "normal distribution", "confidence interval", "mann whitney")
    + ("wilcoxon", "shapiro", "kolmogorov"),
    "outliers": tuple("异常值 异常点 异常数据 异常检测 离群值 离群点 离群 西格玛 σ".split())
    + ("outlier", "anomaly", "anomalies", "anomalous", "sigma", "z score"),
    "model": tuple(
        "预测 预计 预估 未来 聚类 分群 回归 建模 机器学习 深度学习 神经网络 决策树 随机森林 分类模型 外推".split()
    )
    + ("forecast", "predict", "prediction", "predictive", "projection", "extrapolate", "extrapolation")
    + ("cluster", "k means", "classify", "classifier", "classification", "regression", "machine learning")
    + ("neural network", "decision tree", "random forest"),
    "row_order": tuple("第一行 最后一行 上一行 下一行 前一行 后一行 首行 末行 行号 第几行 原始顺序 表格顺序".split())
    + tuple("表中顺序 第一条记录 最后一条记录 上一条记录 下一条记录 第一条数据 最后一条数据".split())
    + ("first row", "last row", "previous row", "next row", "row above", "row below", "row number", "row order")
    + ("first entry", "last entry", "previous entry", "next entry", "first record", "last record", "first line")
    + ("last line", "listed first", "listed last", "first listed", "last listed", "listed next", "listed above")
    + ("listed below", "listed before", "listed after", "listed previously", "top of the table", "top of the list")
    + ("bottom of the table", "bottom of the list", "table order", "original order", "order in the table")
    + ("top of the chart", "bottom of the chart", "listed at the top", "listed at the bottom", "listed on top")
    + ("previous to", "right after", "right before", "directly above", "directly below", "immediately after")
    + ("immediately before", "just above", "just below"),
    "explain": ("为什么", "建议", "模拟", "why", "recommend", "what if", "simulate"),
    # runs of consecutive rows: they depend on the rows' order, which query results do not keep
    "streak": ("连续", "连胜", "连败", "consecutive", "in a row", "streak", "back to back", "back-to-back"),
}

GRAIN_WORDS: dict[str, tuple[str, ...]] = {
    "day": (
        ("每天", "每日", "按天", "按日", "逐日", "日度", "每一天", "daily", "per day", "by day", "each day")
        + ("哪一天", "哪天", "哪一日", "which day", "what day")
        + ("单日", "in a day", "in a single day", "in one day")  # "the most sales in a single day": per day
    ),
    "week": ("每周", "按周", "周度", "逐周", "每星期", "weekly", "per week", "by week", "each week", "wow"),
    "month": (
        ("每月", "按月", "月度", "各月", "每个月", "逐月", "月份", "分月", "monthly", "per month", "by month")
        + ("each month", "month by month", "month over month", "month-over-month", "mom", "哪个月", "哪一个月")
        + ("哪月", "which month", "单月", "in a month", "in a single month", "in one month")
    ),
    "quarter": (
        ("每季度", "按季度", "各季度", "每个季度", "分季度", "季度", "quarterly", "per quarter", "by quarter")
        + ("each quarter", "qoq", "哪个季度", "which quarter")
    ),
    "year": (
        ("每年", "按年", "年度", "各年", "历年", "逐年", "年份", "每一年", "yearly", "annual", "annually", "per year")
        + ("by year", "each year", "year over year", "year-over-year", "yoy")
        + ("in a year", "in a single year", "in one year", "in a season", "in a single season", "in one season")
    ),
}
GRAIN_LABELS = {
    "zh": {"day": "日期", "week": "周", "month": "月份", "quarter": "季度", "year": "年份"},
    "en": {"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year"},
}

GROUP_MARKERS = ("按照", "按", "各个", "各", "每个", "每一个", "分", "by", "per", "each", "across", "for each")
# "excluding Social", "除了华东", "非会员": the value is left out (the shared words, and those only a value takes)
VALUE_NEGATIONS: tuple[str, ...] = (*LEAVES_OUT_WORDS, "exclude", "not in", "not", "without", "除", "非", "不算")
# Phrases whose words would otherwise name a column ("account for" is not the 账号 column).
IDIOMS = ("account for", "accounts for", "accounted for", "make up", "makes up", "made up", "take up", "takes up")
GREETINGS = ("你好", "您好", "嗨", "在吗", "谢谢", "hi", "hello", "hey", "thanks", "thank you", "good morning")
SCOPE_BEFORE = ("在", "限于", "仅看", "只看", "in", "for", "within", "among", "from", "at")
SCOPE_AFTER = ("中", "里", "当中", "之中", "内")
NEGATIONS = ("未", "没有", "没", "非", "不是", "不", "无", "not ", "non-", "non ", "without ", "un")

CHART_WORDS = {
    "line": ("折线图", "折线", "line chart", "line"),
    "bar": ("柱状图", "条形图", "柱形图", "bar chart", "bar"),
    "pie": ("饼图", "pie chart", "pie"),
}

COMPARATORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (">=", ("大于等于", "不低于", "不少于", "至少", "at least", "no less than", ">=")),
    (">=", ("or more", "or greater", "or higher", "or above", "and above", "and over", "及以上")),
    ("<=", ("小于等于", "不高于", "不超过", "至多", "at most", "no more than", "<=")),
    ("<=", ("or less", "or fewer", "or lower", "or below", "and below", "and under", "及以下")),
    (">", ("大于", "高于", "超过", "多于", "以上", "above", "over", "more than", "greater than", "higher than", ">")),
    ("<", ("小于", "低于", "少于", "不足", "以下", "below", "under", "less than", "lower than", "fewer than", "<")),
)
# Comparators written after their number ("100以上", "11,000 or more"); the others come before it.
AFTER_NUMBER: tuple[str, ...] = ("以上", "以下", "及以上", "及以下", "or more", "or greater", "or higher", "or above")
AFTER_NUMBER += ("and above", "and over", "or less", "or fewer", "or lower", "or below", "and below", "and under")
# Comparatives that name their column ("older than 40" is about age).
COMPARATIVE_CONCEPTS = {
    "older than": (">", "age"),
    "younger than": ("<", "age"),
    "more expensive than": (">", "price"),
    "cheaper than": ("<", "price"),
}

CN_NUMERALS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
EN_NUMERALS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}

EN_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
}

# Words that carry no column meaning; what is left after these and every recognised term is what
# the planner could not map.
FILLER_ZH = (
    ("每单", "每笔", "每次", "一次", "单笔", "购买", "买了", "买的", "买", "卖了", "卖出去", "卖出", "卖", "都")
    + ("其他", "其余", "别的", "贡献", "我们", "咱们", "你们")
    + (
        "帮我",
        "请问",
        "请",
        "统计",
        "计算",
        "分析",
        "查询",
        "查看",
        "看看",
        "看一下",
        "一下",
        "列出",
        "显示",
        "展示",
        "给出",
    )
    + (
        "告诉我",
        "情况",
        "表现",
        "分别",
        "是多少",
        "为多少",
        "多少",
        "是什么",
        "什么",
        "怎么样",
        "如何",
        "怎样",
        "有没有",
    )
    + (
        "呢",
        "吗",
        "的",
        "了",
        "是",
        "在",
        "中",
        "里",
        "和",
        "与",
        "及",
        "以及",
        "或",
        "对比",
        "比较",
        "相比",
        "图表",
        "画",
    )
    + ("图", "一共", "有", "哪些", "哪个", "哪", "各个", "各", "每个", "每", "按照", "按", "分", "最", "高", "低", "大")
    + ("小", "多", "少", "前", "后", "名", "个", "笔", "条", "位", "家", "次", "种", "类", "款", "件", "项", "年", "月")
    + ("日", "天", "周", "季度", "第", "上半年", "下半年", "全部", "所有", "整体", "总体", "这份", "这个", "数据", "表")
    + (
        "里面",
        "其中",
        "对应",
        "变化",
        "之间",
        "关系",
        "时",
        "期间",
        "期",
        "为",
        "等于",
        "满足",
        "时候",
        "同期",
        "去年",
        "今年",
    )
)
STOPWORDS_EN = frozenset(
    (
        "what is the are was were of in for by per each a an to and or vs versus how many much do does did "
        "show me give list tell please which who whose that this these those there their its it with from "
        "on at as be been have has had all any every between across over under than compare compared "
        "comparison trend trends chart plot graph breakdown split distribution value values total sum "
        "average avg mean median number count top bottom highest lowest largest smallest most least best "
        "worst rate ratio share percentage percent proportion growth change monthly weekly daily yearly "
        "quarterly annual month week day year quarter time over data table records record rows row "
        "overall combined altogether like look looks get find can could would should will our my we i you "
        "where when then also only just about into out up down same different distinct unique our "
        "whole entire group grouped broken down versus while during since until within among kind "
        "level levels q1 q2 q3 q4 h1 h2 first second half last past recent next but located situated listed held "
        "is if so am he st nd rd th vs ok go"
    ).split()
)

# Verbs that only link the rows to their figures or names ("did norway win", "what song received the most points",
# "how many players were born after 1985"): read as the question's link, never a condition of their own. A verb
# outside this list ("lasted", "set", "eliminated") may carry one, and is asked about (content_words.py).
LINK_VERBS_EN = frozenset(
    (
        "have having win wins won winning lose loses lost losing get gets got gotten earn earns earned earning "
        "receive receives received achieve achieves achieved obtain obtains obtained hold holds held take takes "
        "took taken make makes made finish finishes finished come comes came place placed play plays played "
        "compete competes competed competing participate participated participating feature features featured "
        "use uses used occur occurs occurred serve serves served sing sings sang sung release releases released "
        "give gives gave given appear appears appeared record recorded happen happens happened go goes went "
        "produce produced include includes included contain contains contained represent represents represented "
        "born called named rank ranks ranked end ends ended nominate nominated score scores scored reach reached "
        "attend attended register registered sell sells sold selling buy buys bought order orders ordered "
        "spend spends spent pay pays paid ship ships shipped deliver delivers delivered run runs ran running "
        "work works worked working live lives lived face faces faced facing meet meets met race races raced racing"
    ).split()
)

# Words that open a question asking for a value (a name, a year, a place), not for a number of rows.
VALUE_QUESTION_WORDS = ("who", "whom", "whose", "which", "when", "where", "what", "name")  # "name a racer that …"


# A measure going up or down, as a regular expression's alternatives ("went up", "decreased", "fell"): a change
# asked as a condition (cues.changes) or as a difference between two named values (kinds/named_difference)
RISE_WORDS = (
    r"go up|goes up|went up|gone up|increase[ds]?|increasing|rise[ns]?|rose|risen|grow(?:n|s)?|grew|improve[ds]?"
)
FALL_WORDS = (
    r"go down|goes down|went down|gone down|decrease[ds]?|decreasing|decline[ds]?|declining|drop(?:ped|s)?|"
    r"fall(?:en|s)?|fell|shrank|shrunk"
)
