"""Model-written markup is removed before anything is checked or shown: charts come only from `plot`."""

from __future__ import annotations

import pytest

from apps.agent.markup import strip_markup

ECHARTS = """数据分析显示Q1销售额增长显著：

<div class='chart-wrapper'>
    <div id='chart-sales' style='width:600px;height:400px;'></div>
</div>
<script>
(function(){
    const chart = echarts.init(document.getElementById('chart-sales'));
    chart.setOption({xAxis: {type: 'category', data: ['Q1', 'Q2']}, series: [{type: 'bar', data: [500, 520]}]});
})();
</script>
"""


def test_the_documented_echarts_blob_is_removed_and_the_text_kept():
    assert strip_markup(ECHARTS) == ("数据分析显示Q1销售额增长显著：", True)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("最高 <script>alert(1)", "最高"),  # a script left open runs to the end
        ("<b>华东</b> 最高<br/>", "华东 最高"),
        ("图：\n```html\n<div id=c></div>\n```\n完", "图：\n\n完"),
        ("图：\n```javascript\nconsole.log(1)\n```\n完", "图：\n\n完"),
        ("```\nmyChart.setOption({series: []})\n```\n完", "完"),
        ("<iframe src='https://x.example'></iframe>看这里", "看这里"),
        ("<!-- CODE: code_sales --> 见上", "见上"),
        ('<svg width="10"><rect/></svg>完', "完"),
    ],
)
def test_markup_and_chart_code_are_removed(text, kept):
    assert strip_markup(text) == (kept, True)


@pytest.mark.parametrize(
    "text",
    ["若 a<b 且 c>d", "<华东> 最高", "增长 < 5%", "代码：\n```python\nprint(1)\n```", "{{q1.销售额[0]}} > 100"],
)
def test_plain_text_with_angle_brackets_is_left_alone(text):
    assert strip_markup(text) == (text, False)
