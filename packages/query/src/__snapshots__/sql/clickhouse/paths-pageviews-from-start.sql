-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-04 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "DE"
-- p5 = "/"
SELECT any(e_v) AS v, any(e_c) AS c, arrayMap(x -> x.2, arraySort(groupArray((e_t, e_i)))) AS items
FROM (
  SELECT session_id AS e_s, visitor_id AS e_v, client_id AS e_c, toUInt64(ts) * 1000 + ts_ms AS e_t, path AS e_i
  FROM events
  WHERE property = {p1:String}
  AND ts >= toDateTime({p2:String}, 'UTC')
  AND ts < toDateTime({p3:String}, 'UTC')
  AND name = 'pageview'
  AND (country = {p4:String})
) AS pv
GROUP BY e_s
HAVING countIf(e_i = {p5:String}) > 0
LIMIT 0, 5000000
