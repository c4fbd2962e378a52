-- Products stored before the service rendered statement documents had them uploaded by the
-- operator: they keep that (`uploaded`), so no statement of theirs starts rendering unasked.
-- Products created from now on render theirs (the column's default, `rendered`).
UPDATE `products` SET `documents` = 'uploaded';
