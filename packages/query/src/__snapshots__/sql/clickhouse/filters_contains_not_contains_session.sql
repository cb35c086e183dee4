-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markgoogle' OR '1'='1"
-- p5 = "Qx7Markbing' OR '1'='1"
-- p6 = "Qx7Markspam' OR '1'='1"
-- p7 = "2024-03-26 23:00:00"
-- p8 = "2024-04-04 22:00:00"
SELECT uniqExact(vkey) AS visitors
FROM (
  SELECT skey, vkey, start_ts
  FROM (
    SELECT property, skey, vkey, start_ts, referrer, utm_campaign
    FROM visits_done
    WHERE property = {p1:String}
    AND day >= toDate(toDateTime({p7:String}, 'UTC'))
    AND day <= toDate(toDateTime({p8:String}, 'UTC'))
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT property, skey, vkey, start_ts, referrer, utm_campaign
    FROM (
      SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, argMinMerge(s_referrer) AS referrer, argMinMerge(s_utm_campaign) AS utm_campaign
      FROM visits
      WHERE property = {p1:String}
      AND day >= toDate(toDateTime({p7:String}, 'UTC'))
      AND day <= toDate(toDateTime({p8:String}, 'UTC'))
      AND day >= toDate({lookout_first_live:String})
      GROUP BY property, skey
      HAVING skey NOT IN (
        SELECT cityHash64(session_id)
        FROM visits
        WHERE property = {p1:String}
        AND day >= toDate(toDateTime({p7:String}, 'UTC'))
        AND day <= toDate(toDateTime({p8:String}, 'UTC'))
        AND day = toDate({lookout_first_live:String}) - 1
      )
    )
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  AND ((positionCaseInsensitiveUTF8(referrer, {p4:String}) > 0) OR (positionCaseInsensitiveUTF8(referrer, {p5:String}) > 0))
  AND NOT ((positionCaseInsensitiveUTF8(utm_campaign, {p6:String}) > 0))
) AS r0
LIMIT 0, 1
