# expect: package_install
%pip install scrapy
