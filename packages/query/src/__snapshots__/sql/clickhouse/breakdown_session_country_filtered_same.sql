-- p1 = "Qx7MarkProp"
-- p2 = "2024-03-27 23:00:00"
-- p3 = "2024-04-03 22:00:00"
-- p4 = "Qx7Markcountry' OR '1'='1"
-- p5 = "2024-03-26 23:00:00"
-- p6 = "2024-04-04 22:00:00"
SELECT country AS dim, countIf(prev_country < toDateTime({p2:String}, 'UTC')) AS visitors
FROM (
  SELECT skey, vkey, start_ts, country, prev_country
  FROM (
    SELECT property, skey, vkey, start_ts, country, prev_country
    FROM visits_done
    WHERE property = {p1:String}
    AND day >= toDate(toDateTime({p5:String}, 'UTC'))
    AND day <= toDate(toDateTime({p6:String}, 'UTC'))
    AND batch IN ({lookout_settled:UInt64s})
    UNION ALL SELECT property, skey, vkey, start_ts, country, prev_country
    FROM (
      SELECT property, r.2 AS skey, vkey, r.1 AS start_ts, country, toDateTime(p_start, 'UTC') AS prev_country
      FROM (
        SELECT property, vkey, country, arraySort(groupArray((start_ts, skey, is_new))) AS a_rows
        FROM (
          SELECT property, skey, vkey, start_ts, country, toUInt8(1) AS is_new
          FROM (
            SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews, argMinMerge(s_country) AS country
            FROM visits
            WHERE property = {p1:String}
            AND day >= toDate(toDateTime({p5:String}, 'UTC'))
            AND day <= toDate(toDateTime({p6:String}, 'UTC'))
            AND day >= toDate({lookout_first_live:String})
            GROUP BY property, skey
            HAVING skey NOT IN (
              SELECT cityHash64(session_id)
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p5:String}, 'UTC'))
              AND day <= toDate(toDateTime({p6:String}, 'UTC'))
              AND day = toDate({lookout_first_live:String}) - 1
            )
          )
          UNION ALL SELECT property, skey, vkey, start_ts, country, toUInt8(0) AS is_new
          FROM visits_done
          WHERE property = {p1:String}
          AND day >= toDate(toDateTime({p5:String}, 'UTC'))
          AND day < toDate({lookout_first_live:String})
          AND batch IN ({lookout_settled:UInt64s})
          AND vkey IN (
            SELECT vkey
            FROM (
              SELECT property, toUInt64(cityHash64(session_id)) AS skey, toUInt64(cityHash64(anyMerge(s_visitor))) AS vkey, toDateTime(minMerge(s_start), 'UTC') AS start_ts, toUInt64(sumMerge(s_pageviews)) AS pageviews
              FROM visits
              WHERE property = {p1:String}
              AND day >= toDate(toDateTime({p5:String}, 'UTC'))
              AND day <= toDate(toDateTime({p6:String}, 'UTC'))
              AND day >= toDate({lookout_first_live:String})
              GROUP BY property, skey
              HAVING skey NOT IN (
                SELECT cityHash64(session_id)
                FROM visits
                WHERE property = {p1:String}
                AND day >= toDate(toDateTime({p5:String}, 'UTC'))
                AND day <= toDate(toDateTime({p6:String}, 'UTC'))
                AND day = toDate({lookout_first_live:String}) - 1
              )
            )
          )
        )
        GROUP BY property, vkey, country
      ) ARRAY
      JOIN a_rows AS r, arrayPushFront(arrayPopBack(arrayMap(x -> x.1, a_rows)), toDateTime(0, 'UTC')) AS p_start
      WHERE r.3 = 1
    )
  )
  WHERE property = {p1:String}
  AND (start_ts >= toDateTime({p2:String}, 'UTC') AND start_ts < toDateTime({p3:String}, 'UTC'))
  AND country = {p4:String}
) AS r0
GROUP BY dim
ORDER BY visitors DESC, dim ASC
LIMIT 0, 100
